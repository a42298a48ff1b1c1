package db

import (
	"context"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/jackc/pgx/v5"
)

// namesAhead reads the names of a closing month's players on a connection
// of its own while the close reads the month's ranks, so that the close can
// hand ranks and names over as soon as its read ends: at ten million
// players with 64 readers, the names read after the ranks took another 9 s,
// during which the readers still went to the database.
type namesAhead struct {
	cancel context.CancelFunc
	done   chan struct{}
	names  playerNames
	err    error // why the read failed, once done
}

// readNamesAhead starts reading the names of players, a relation with a
// player_id column of about count rows (an SQL expression), in the
// background: a closing month's or period's players, whose scores no
// longer change.
func (db *DB) readNamesAhead(ctx context.Context, players, count string) *namesAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &namesAhead{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.err = db.readTx(ctx, func(tx pgx.Tx) error {
			if err := longJob(ctx, tx); err != nil {
				return err
			}
			// Joining names with ten million players (when the players
			// table is far larger than the month) wants more memory and
			// workers than the service's small reads. The join hands every
			// row on from its workers, which the planner prices above a
			// join without them; with them it took 11.4-11.9 s instead of
			// 13.9-20 s at ten million players.
			for _, set := range []string{
				`SET LOCAL work_mem = '1GB'`,
				`SET LOCAL max_parallel_workers_per_gather = 2`,
				`SET LOCAL parallel_tuple_cost = 0`,
			} {
				if _, err := tx.Exec(ctx, set); err != nil {
					return err
				}
			}
			// The size of an id and a name come from the players'
			// statistics, or are guessed before their first ANALYZE.
			sizes := `SELECT ` + count + `, COALESCE((SELECT sum(avg_width) FROM pg_stats
				WHERE schemaname = current_schema() AND tablename = 'players' AND attname IN ('id', 'name')), 24)`
			var (
				participants float64
				pairBytes    int
			)
			if err := tx.QueryRow(ctx, sizes).Scan(&participants, &pairBytes); err != nil {
				return err
			}
			a.names.reserve(int(participants), pairBytes)
			return readNameBytes(ctx, tx, players, int(participants), a.names.add)
		})
	}()
	return a
}

// each calls name with every name read, once the read has ended.
func (a *namesAhead) each(ctx context.Context, name func(playerID, name string) error) error {
	select {
	case <-a.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if a.err != nil {
		return fmt.Errorf("read names: %w", a.err)
	}
	return a.names.each(name)
}

// stop ends the read, unless it has ended, and waits for it.
func (a *namesAhead) stop() {
	a.cancel()
	<-a.done
}

// playerNames holds players' ids and names back to back: ten million of
// the benchmark's (15-byte ids, names of about 14) take about 370 MB, less
// than half of as many pairs of Go strings, and no work from the garbage
// collector.
type playerNames struct {
	data []byte
	// ends holds, for pair i, the end of its id in data at 2i and the end
	// of its name at 2i+1.
	ends []uint32
}

// reserve makes room, in an empty playerNames, for about n pairs of
// pairBytes each, so that ten million are not copied over and over as they
// arrive. It allocates with make, not slices.Grow: slices.Grow clears the
// new room with one memclr that the scheduler cannot preempt, and at ten
// million players, while it cleared 450 MB, the process's requests waited
// up to 4.8 s, most likely for the garbage collector, which waited to stop
// it (docs/PERFORMANCE.md, "closeMonth at 10M, round seven"). make clears a
// large allocation in preemptible chunks.
func (p *playerNames) reserve(n, pairBytes int) {
	p.data = make([]byte, 0, n*pairBytes)
	p.ends = make([]uint32, 0, 2*n)
}

var errNamesTooLarge = errors.New("the names take more than 4 GiB")

func (p *playerNames) add(id, name []byte) error {
	if len(p.data)+len(id)+len(name) > math.MaxUint32 {
		return errNamesTooLarge
	}
	p.data = append(p.data, id...)
	p.ends = append(p.ends, uint32(len(p.data)))
	p.data = append(p.data, name...)
	p.ends = append(p.ends, uint32(len(p.data)))
	return nil
}

// each calls name with every pair. The strings share p's memory, which is
// never written again once the read has ended: no copy of ten million ids
// and names.
func (p *playerNames) each(name func(playerID, name string) error) error {
	start := uint32(0)
	for i := 0; i < len(p.ends); i += 2 {
		idEnd, nameEnd := p.ends[i], p.ends[i+1]
		if err := name(bytesString(p.data[start:idEnd]), bytesString(p.data[idEnd:nameEnd])); err != nil {
			return err
		}
		start = nameEnd
	}
	return nil
}

// bytesString returns b as a string without a copy; b must never change.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
