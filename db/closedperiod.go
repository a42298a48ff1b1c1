package db

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/packed"
)

// Closed periods of every board, main's months included, read whole for
// memory. A
// CLOSED period's rows no longer change but by a correction, which bumps the
// period's ranks_version (announced to every instance at its commit), so a
// ClosedPeriod answers exactly what PeriodStanding and PeriodLeaderboard
// would, from the same rows and with the same code for ranks and cursors,
// until its version is outdated.

// periodsChannel is the NOTIFY channel on which a committed close of a
// period closed on its own, and a committed correction of a CLOSED period,
// announce "<board> <key> <ranks_version>" to every
// instance. Board ids and period keys hold no space.
const periodsChannel = "leaderboard_periods"

// announcePeriodSQL announces period $1's ranks version on periodsChannel,
// at the commit of the transaction that changed it: a process that dies
// after the commit has announced it already.
const announcePeriodSQL = `SELECT pg_notify('` + periodsChannel + `', board_id || ' ' || key || ' ' || ranks_version)
	FROM periods WHERE id = $1`

// ClosedPeriod is the whole of one CLOSED period of any board, main's
// months included, as one snapshot had it: its rows in rank order with
// their players' names of that moment, in a packed.Table, with a board's
// columns (subscores, metadata, cohort places, and the keys of its
// cursors). It is read-only, so safe for concurrent use.
type ClosedPeriod struct {
	key      string
	id       int32
	startsAt time.Time
	version  int
	rows     *packed.Table
}

// Players returns how many players the period ranks.
func (p *ClosedPeriod) Players() int { return p.rows.Players() }

// Bytes returns the memory the period's table holds.
func (p *ClosedPeriod) Bytes() int { return p.rows.Bytes() }

// Version returns the ranks_version the period was read at.
func (p *ClosedPeriod) Version() int { return p.version }

// LoadClosedPeriod reads period key of b whole from one snapshot, when it is
// CLOSED: first its row, whose participants and end (its ends_at, or its
// closed_at when it has none) it passes to admit, then, if admit returns
// true, its rows. nil, without an error, when the period is not CLOSED or
// admit refused it.
func (db *DB) LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
	admit func(participants int, end time.Time) bool) (*ClosedPeriod, error) {
	var p *ClosedPeriod
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		const period = `SELECT id, starts_at, ranks_version, participants, COALESCE(ends_at, closed_at)
			FROM periods WHERE board_id = $1 AND key = $2 AND status = 'CLOSED'`
		loaded := &ClosedPeriod{key: key}
		var (
			participants int
			end          time.Time
		)
		err := tx.QueryRow(ctx, period, b.ID, key).Scan(&loaded.id, &loaded.startsAt, &loaded.version, &participants, &end)
		if noRows(err) {
			return nil
		} else if err != nil {
			return err
		}
		if !admit(participants, end) {
			return nil
		}
		// A million rows take seconds to read: no statement timeout, as for
		// a closed month's final ranks.
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		if err := loaded.read(ctx, tx, participants); err != nil {
			return err
		}
		if err := loaded.readPlaces(ctx, tx, b); err != nil {
			return err
		}
		p = loaded
		return nil
	})
	if err != nil {
		return nil, errorf("load closed period %s of %s: %w", key, b.ID, err)
	}
	return p, nil
}

// LargeClosedPeriods returns up to limit CLOSED periods of every board,
// main included, whose final ranks have a partition of their own (at least
// Limits.OwnPartitionPlayers players when they closed), the latest ended
// first, with their Board, Key and Participants: those whose load into
// memory takes seconds, which a starting instance loads before it says it
// is ready (closedperiods.Cache.Preload). A smaller period loads in
// milliseconds at its first read.
func (db *DB) LargeClosedPeriods(ctx context.Context, limit int) ([]leaderboard.Period, error) {
	const q = `SELECT board_id, key, participants FROM periods
		WHERE final_bucket = ` + ownBucketSQL + ` AND status = 'CLOSED'
		ORDER BY COALESCE(ends_at, closed_at) DESC LIMIT $1`
	rows, err := db.pool.Query(ctx, q, limit)
	if err != nil {
		return nil, errorf("list large closed periods: %w", err)
	}
	var (
		out []leaderboard.Period
		p   = leaderboard.Period{Status: leaderboard.PeriodClosed}
	)
	_, err = pgx.ForEachRow(rows, []any{&p.Board, &p.Key, &p.Participants}, func() error {
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, errorf("list large closed periods: %w", err)
	}
	return out, nil
}

// read reads p's rows, of about participants players, and their names, as
// a close reads a period's rows (readRankedRows: in heap order, sorted
// here) and a closed month's names (readNameBytes), rather than one query
// joining the names, scanned row by row into a struct a row
// (docs/PERFORMANCE.md, issue 37). The rows' columns become the table's,
// not copied but for their keys; the times of its entries are in
// time.Local, as pgx scans a timestamptz, so that the answers are the
// database's to the last field.
func (p *ClosedPeriod) read(ctx context.Context, tx pgx.Tx, participants int) error {
	rows, err := readRankedRows(ctx, tx, periodSource(p.id, withBoardColumns|withKeyColumns, participants))
	if err != nil {
		return err
	}
	p.rows = periodTable(rows)
	players := fmt.Sprintf(`(SELECT player_id FROM board_scores WHERE period_id = %d)`, p.id)
	err = readNameBytes(ctx, tx, players, rows.len(), func(id, name []byte) error {
		return p.rows.SetName(bytesString(id), bytesString(name))
	})
	if err != nil {
		return err
	}
	return p.rows.Complete()
}

// periodTable returns the table of rows, read with withBoardColumns and
// withKeyColumns, to name: it takes over their columns, copying only the
// keys (a binary search reads a row's three together).
func periodTable(rows *rankedRows) *packed.Table {
	keys := make([]packed.Key, rows.len())
	for i := range keys {
		keys[i] = packed.Key{SortScore: rows.sortScores[i], SortSubscore: rows.sortSubscores[i], Seq: rows.seqs[i]}
	}
	return packed.TableOf(packed.Columns{IDs: rows.ids, IDEnds: rows.idEnds, Scores: rows.scores,
		ReachedAtMicros: rows.reachedAtMicros, Subscores: rows.subscores, HasSubscore: rows.hasSubscore,
		Metadata: rows.metadata, MetadataEnds: rows.metadataEnds, Keys: keys}, time.Local)
}

// readPlaces reads the cohort places of p's players when b has cohorts.
func (p *ClosedPeriod) readPlaces(ctx context.Context, tx pgx.Tx, b *leaderboard.Board) error {
	if !b.HasCohorts() {
		return nil
	}
	const q = `SELECT f.player_id, f.cohort_rank, f.cohort_size FROM periods p
		JOIN board_final_ranks f ON f.bucket = p.final_bucket AND f.period_id = p.id
		WHERE p.id = $1 AND f.cohort_rank IS NOT NULL`
	rows, err := tx.Query(ctx, q, p.id)
	if err != nil {
		return err
	}
	p.rows.AddPlaces()
	var (
		player string
		place  packed.Place
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &place.Rank, &place.Size}, func() error {
		if rank := p.rows.RankOf(player); rank != 0 {
			p.rows.SetPlace(rank, place)
		}
		return nil
	})
	return err
}

// Standing returns what PeriodStanding returns for playerID in the period of
// b: nil when the player has no row in it.
func (p *ClosedPeriod) Standing(b *leaderboard.Board, playerID string, above, below int) *leaderboard.Standing {
	rank := p.rows.RankOf(playerID)
	if rank == 0 {
		return nil
	}
	above = min(max(above, 0), leaderboard.MaxNeighbours)
	below = min(max(below, 0), leaderboard.MaxNeighbours)
	entries, self := p.rows.Window(rank, above, below)
	s := &leaderboard.Standing{}
	p.standing(s, b, b.MonthOfPeriod(p.key, p.startsAt), entries[self])
	// Never nil, as the database's reads answer them.
	s.Above, s.Below = entries[:self:self], entries[self+1:]
	return s
}

// Group returns what PeriodGroup returns for playerIDs in the period of b:
// the standings of those with a row in it, best first, without neighbours.
func (p *ClosedPeriod) Group(b *leaderboard.Board, playerIDs []string) []leaderboard.Standing {
	ranks := p.rows.RanksOf(playerIDs)
	group, month := make([]leaderboard.Standing, len(ranks)), b.MonthOfPeriod(p.key, p.startsAt)
	names := make([]string, len(ranks))
	for i, rank := range ranks {
		p.standing(&group[i], b, month, p.rows.Entry(rank, &names[i]))
	}
	return group
}

// standing sets s to the standing of e's rank in the period of b, of
// month, without neighbours.
func (p *ClosedPeriod) standing(s *leaderboard.Standing, b *leaderboard.Board, month leaderboard.Month, e leaderboard.RankEntry) {
	*s = leaderboard.Standing{RankEntry: e, Board: b.ID, Period: p.key, Total: p.Players(), Month: month, Final: true}
	if place, ok := p.rows.PlaceOf(e.Rank); ok {
		s.Tier = tierOfPlace(b, cohortPlace{rank: place.Rank, size: place.Size})
	} else {
		s.Tier = b.TierOf(s.Rank, s.Total)
	}
}

// keyOf returns the key of rank in its board's order, as its cursor carries
// it.
func (p *ClosedPeriod) keyOf(rank int) boardKey {
	k := p.rows.Key(rank)
	return boardKey{sortScore: k.SortScore, sortSubscore: k.SortSubscore,
		reachedAt: time.UnixMicro(p.rows.ReachedAtMicros(rank)).UTC(), seq: k.Seq}
}

// Leaderboard returns what PeriodLeaderboard returns for the page of first
// entries after the cursor; ok is false for a cursor that is malformed or
// not of this period, whose error only the database's read gives.
func (p *ClosedPeriod) Leaderboard(first int, after string) (page *leaderboard.Page, ok bool) {
	cur, err := decodeBoardCursor(after)
	if err != nil || (cur != nil && cur.periodID != p.id) {
		return nil, false
	}
	from := 0
	if cur != nil {
		// The rank a cursor carries is not trusted: counted afresh, as
		// boardPage does.
		from = sort.Search(p.Players(), func(i int) bool { return p.keyOf(i+1).compare(cur.key) > 0 })
	}
	return p.rows.Page(from, first, func(rank int) string {
		return boardCursor{periodID: p.id, rank: rank, key: p.keyOf(rank)}.encode()
	}), true
}

// ClosedPeriodVersions calls fn with the ranks version of each of the
// periods, given as boards[i]'s keys[i], that is CLOSED, on any board
// (main's months are its periods). A period it does not call fn for was
// dropped, was never closed, or has a key that names none.
func (db *DB) ClosedPeriodVersions(ctx context.Context, boards, keys []string, fn func(board, key string, version int)) error {
	const q = `SELECT p.board_id, p.key, p.ranks_version FROM unnest($1::text[], $2::text[]) AS w (board_id, key)
		JOIN periods p ON p.board_id = w.board_id AND p.key = w.key WHERE p.status = 'CLOSED'`
	rows, err := db.pool.Query(ctx, q, boards, keys)
	if err != nil {
		return errorf("read versions of closed periods: %w", err)
	}
	var (
		board, key string
		version    int
	)
	_, err = pgx.ForEachRow(rows, []any{&board, &key, &version}, func() error {
		fn(board, key, version)
		return nil
	})
	if err != nil {
		return errorf("read versions of closed periods: %w", err)
	}
	return nil
}

// ListenPeriods calls fn with each closed period whose final ranks change,
// on any board, as the close or correction that changed them is announced
// on periodsChannel in its transaction, until ctx ends or the connection
// fails or its server stops answering (a lost primary); it then returns
// why. Announcements made while no one listens are lost:
// ClosedPeriodVersions tells what changed meanwhile.
func (db *DB) ListenPeriods(ctx context.Context, fn func(board, key string, version int)) error {
	err := db.listenReady(ctx, []string{periodsChannel}, nil, func(_, payload string) {
		fields := strings.Fields(payload)
		if len(fields) != 3 {
			return
		}
		if version, err := strconv.Atoi(fields[2]); err == nil {
			fn(fields[0], fields[1], version)
		}
	})
	return errorf("listen for closed periods: %w", err)
}
