package db

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// rankedRows are a period's scores in rank order, row i holding rank i+1,
// packed in columns: ten million players of main take about 250 MB. A close
// reads them once and builds everything from them: the final ranks (by
// COPY), the digest and the message's top; the closed period is then held
// in memory in a packed.Table that takes over their columns (periodTable).
// columns says which of the optional columns were read.
type rankedRows struct {
	columns         rankColumns
	ids             []byte   // the players' ids back to back
	idEnds          []uint32 // row i's id is ids[idEnds[i-1]:idEnds[i]], from 0 for row 0
	scores          []int32
	reachedAtMicros []int64
	// With withBoardColumns, each row's subscore (when hasSubscore) and its
	// metadata's JSON, back to back as ids are, empty for none.
	subscores    []int32
	hasSubscore  []bool
	metadata     []byte
	metadataEnds []uint64 // 64-bit: 10M players' metadata may pass 4 GiB
	// With withKeyColumns, each row's place in its board's order but its
	// reached_at (boardKey).
	sortScores, sortSubscores, seqs []int64
}

// rankColumns are the optional columns of rankedRows, as bits.
type rankColumns uint8

const (
	// withBoardColumns are a board's subscore and metadata, which its final
	// ranks keep.
	withBoardColumns rankColumns = 1 << iota
	// withKeyColumns are a board's sort keys and seq, which its cursors carry.
	withKeyColumns
	// unnumbered rows come without their rank, in the order of the heap:
	// only as read, before sortedByKey.
	unnumbered
)

// sql returns the columns read for rankedRows with c, after the rank, in
// the order rankedRowsDecoder decodes them.
func (c rankColumns) sql() string {
	q := `player_id, score, reached_at`
	if c&withBoardColumns != 0 {
		q += `, subscore, metadata`
	}
	if c&withKeyColumns != 0 {
		q += `, sort_score, sort_subscore, seq`
	}
	return q
}

// fields returns how many fields a row of the COPY that reads c has.
func (c rankColumns) fields() int {
	n := 4
	if c&unnumbered != 0 {
		n--
	}
	if c&withBoardColumns != 0 {
		n += 2
	}
	if c&withKeyColumns != 0 {
		n += 3
	}
	return n
}

func (r *rankedRows) len() int { return len(r.scores) }

func (r *rankedRows) id(i int) []byte { return r.ids[arenaStart(r.idEnds, i):r.idEnds[i]] }

// metadataOf returns row i's metadata, nil when it has none; a view of r's
// memory, which is never written once read.
func (r *rankedRows) metadataOf(i int) []byte {
	if r.columns&withBoardColumns == 0 {
		return nil
	}
	m := r.metadata[arenaStart(r.metadataEnds, i):r.metadataEnds[i]]
	if len(m) == 0 {
		return nil
	}
	return m
}

// arenaStart returns where value i of an arena whose values end at ends
// starts.
func arenaStart[E uint32 | uint64](ends []E, i int) E {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

// entry returns row i as a final entry, its player without a name. The id
// and metadata share r's memory, which is never written once read: no
// string for each of ten million rows.
func (r *rankedRows) entry(i int) leaderboard.RankEntry {
	e := leaderboard.RankEntry{
		Rank:      i + 1,
		Score:     int(r.scores[i]),
		ReachedAt: time.UnixMicro(r.reachedAtMicros[i]).UTC(),
		Player:    leaderboard.Player{ID: bytesString(r.id(i))},
	}
	if r.columns&withBoardColumns != 0 {
		if r.hasSubscore[i] {
			e.Subscore = new(int(r.subscores[i]))
		}
		if m := r.metadataOf(i); m != nil {
			e.Metadata = m
		}
	}
	return e
}

// key returns row i's place in its board's order; rows read with
// withKeyColumns only.
func (r *rankedRows) key(i int) boardKey {
	return boardKey{sortScore: r.sortScores[i], sortSubscore: r.sortSubscores[i],
		reachedAt: time.UnixMicro(r.reachedAtMicros[i]).UTC(), seq: r.seqs[i]}
}

// maxIDBytes is the most player ids rankedRows holds: their ends are
// uint32.
const maxIDBytes = 1<<32 - 1

// rankSource is where readRankedRows reads a period's rows from: a FROM
// clause (a relation, and a condition, formatted from numbers only: COPY
// takes no parameters), the rank order, the optional columns, and a
// guess of the number of rows and of the bytes of an id, to size the
// columns. With heapSort, the rows are read in the order of the heap and
// sorted here (sortedByKey), and order is not used.
type rankSource struct {
	from     string
	order    string
	columns  rankColumns
	rows     int
	idBytes  int
	heapSort bool
}

// periodSource returns the rankSource of period id, with columns, and about
// rows rows.
func periodSource(id int32, columns rankColumns, rows int) rankSource {
	return rankSource{from: fmt.Sprintf(`board_scores WHERE period_id = %d`, id),
		columns: columns, rows: rows, idBytes: 16, heapSort: true}
}

// readRankedRows reads src's rows in rank order. A period's rank index
// lacks the score, subscore and metadata, and the shared board_scores is
// not vacuumed for a period: walking it fetches each row from the heap, a
// random page a row. So a period's rows (heapSort) come in
// the order of the heap, by a bitmap scan that reads each of the period's
// pages once, with their sort keys, and are sorted here: at a million
// players 4.6 s against 22.7 to 28.9 s for the walk, and 11.9 s for
// PostgreSQL's own sort, on a loaded machine (docs/PERFORMANCE.md, issue
// 37). Their rows then hold the sort keys too (withKeyColumns). The rows
// come as binary COPY, which PostgreSQL sends with less work than a query's
// rows and which decodes here without pgx's per-row scanning
// (docs/PERFORMANCE.md, round nine).
func readRankedRows(ctx context.Context, tx pgx.Tx, src rankSource) (*rankedRows, error) {
	if src.heapSort {
		src.columns |= withKeyColumns
	}
	// Sized up front, so that no column is copied as it grows: a copy of
	// hundreds of megabytes cannot be preempted, and holds the process
	// when the garbage collector would stop it.
	n := src.rows
	r := &rankedRows{columns: src.columns, ids: make([]byte, 0, min(src.idBytes*n, maxIDBytes)),
		idEnds: make([]uint32, 0, n), scores: make([]int32, 0, n), reachedAtMicros: make([]int64, 0, n)}
	if src.columns&withBoardColumns != 0 {
		r.subscores, r.hasSubscore, r.metadataEnds = make([]int32, 0, n), make([]bool, 0, n), make([]uint64, 0, n)
	}
	if src.columns&withKeyColumns != 0 {
		r.sortScores, r.sortSubscores, r.seqs = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	}
	// ROW_NUMBER() looks at no frame; saying the frame is the row alone
	// spares PostgreSQL 15 comparing each row with the one before to find
	// its peers. Rows in the order of the heap are numbered by their sort
	// here, so they come without a number: no window to keep.
	read := `COPY (SELECT ROW_NUMBER() OVER (ORDER BY ` + src.order + ` ROWS BETWEEN CURRENT ROW AND CURRENT ROW), ` +
		src.columns.sql() + ` FROM ` + src.from + `) TO STDOUT WITH (FORMAT binary)`
	if src.heapSort {
		r.columns |= unnumbered
		read = `COPY (SELECT ` + src.columns.sql() + ` FROM ` + src.from + `) TO STDOUT WITH (FORMAT binary)`
	}
	if err := copyRankedRows(ctx, tx, read, r, src.heapSort); err != nil {
		return nil, err
	}
	if src.heapSort {
		return r.sortedByKey(), nil
	}
	return r, nil
}

// copyRankedRows runs read, a COPY of rows, into r. With bitmap, the read
// may not walk an index (SET LOCAL for the COPY alone): the planner would
// otherwise take the primary key's, as likely to fetch rows at random as
// the rank index.
func copyRankedRows(ctx context.Context, tx pgx.Tx, read string, r *rankedRows, bitmap bool) error {
	if bitmap {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_indexscan = off`); err != nil {
			return err
		}
	}
	decoder := &rankedRowsDecoder{rows: r}
	if _, err := tx.Conn().PgConn().CopyTo(ctx, decoder, read); err != nil {
		return err
	}
	if bitmap {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_indexscan TO DEFAULT`); err != nil {
			return err
		}
	}
	return decoder.finish()
}

// finalTarget is where copyFinalRanks copies a close's rows: a final ranks
// table, its COPY's columns (the leading ones the same in every row, then
// rank, player_id, score, reached_at, and a board's subscore and metadata),
// whether the table was made in the close's transaction (so FREEZE), and
// the leading values, encoded.
type finalTarget struct {
	table   string
	columns string
	freeze  bool
	fields  int    // the leading values'
	leading []byte // in binary COPY, the same for every row
	// cohorts, on a board with cohorts, are the rows' cohort results,
	// copied as cohort_rank, cohort_size and next_league after the others.
	cohorts *cohortResults
}

// periodTarget is the target of period id's final ranks in bucket's
// partition of board_final_ranks.
func periodTarget(id int32, bucket time.Time) finalTarget {
	leading := appendField(nil, 4, uint64(postgresDay(bucket)))
	return finalTarget{table: finalRanksPartition(bucket),
		columns: `bucket, period_id, rank, player_id, score, reached_at, subscore, metadata`,
		fields:  2, leading: appendField(leading, 4, uint64(uint32(id)))}
}

// ownTarget is the target of period id's final ranks of their own of the
// given version, made in the close's transaction (so FREEZE), for rows of
// columns: rows without a board's (main's months) leave subscore and
// metadata NULL.
func ownTarget(id int32, version int, columns rankColumns) finalTarget {
	t := periodTarget(id, ownBucket)
	t.table, t.freeze = ownPartition(id, version), true
	if columns&withBoardColumns == 0 {
		t.columns = `bucket, period_id, rank, player_id, score, reached_at`
	}
	return t
}

// postgresDay returns day, a midnight UTC, as PostgreSQL's binary date.
// It counts in seconds, not in a Duration, which spans only 292 years: the
// bucket of final ranks of their own is in year 1.
func postgresDay(day time.Time) int32 {
	return int32((day.Unix() - postgresEpoch.Unix()) / (24 * 60 * 60))
}

// copyFinalRanks copies rows into target's table with COPY, binary, and
// FREEZE into a table made in this transaction: those rows are written
// already frozen and their pages all-visible, so neither the primary key's
// build nor any later vacuum has to visit them again. COPY writes a page at
// a time, where INSERT ... SELECT writes a row at a time: at ten million
// players 4.8 s and 464 MB of WAL against 12.4 s and 911 MB here. At the
// end of stop the copy fails, and the connection stays open.
func copyFinalRanks(ctx, stop context.Context, tx pgx.Tx, target finalTarget, rows *rankedRows) (int64, error) {
	growSendBuffer(tx.Conn().PgConn().Conn())
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeCopyBinary(stop, pw, target, rows)) }()
	// pgx's CopyFrom writes no FREEZE: the statement is sent as it is.
	options := `FORMAT binary`
	if target.freeze {
		options += `, FREEZE`
	}
	columns := target.columns
	if target.cohorts != nil {
		columns += `, cohort_rank, cohort_size, next_league`
	}
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, pr,
		`COPY `+target.table+` (`+columns+`) FROM STDIN WITH (`+options+`)`)
	pr.CloseWithError(io.ErrClosedPipe) // ends the writer if COPY stopped reading
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// copySendBuffer is the send buffer a close asks of a Unix socket to the
// database for its COPY: enough for about 40 ms of PostgreSQL's COPY.
const copySendBuffer = 4 << 20

// growSendBuffer lets conn, when it is a Unix socket, hold up to
// copySendBuffer bytes on their way to the database. TCP grows its send
// buffer by itself; a Unix socket keeps the system's default, about 200 KB
// on Linux, 2 ms of a close's COPY. A service busy with readers may keep
// the COPY's goroutine from running for longer than that: at ten million
// players with 64 readers, PostgreSQL slept a third of the COPY waiting for
// rows (docs/PERFORMANCE.md, round nine). The system caps the size
// (net.core.wmem_max on Linux); a size it refuses leaves the COPY as it was.
// The connection keeps the size in the pool: a bound on what may queue,
// not memory held.
func growSendBuffer(conn net.Conn) {
	if unix, ok := conn.(*net.UnixConn); ok {
		_ = unix.SetWriteBuffer(copySendBuffer)
	}
}

// PostgreSQL's binary COPY format: a signature, flags and a header
// extension length, then each row as its field count and each field as its
// length and value, then -1. Dates count days and timestamps microseconds
// from 2000-01-01 UTC.
var (
	copyBinarySignature = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	postgresEpoch       = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
)

// writeCopyBinary writes rows, as target's final ranks, to w in
// PostgreSQL's binary COPY format, unless stop ends first.
func writeCopyBinary(stop context.Context, w io.Writer, target finalTarget, rows *rankedRows) error {
	epochMicros := postgresEpoch.UnixMicro()
	board := rows.columns&withBoardColumns != 0
	fields := uint16(target.fields + 4)
	if board {
		fields += 2
	}
	if target.cohorts != nil {
		fields += 3
	}
	buf := append([]byte(nil), copyBinarySignature...)
	for i := range rows.len() {
		id := rows.id(i)
		buf = binary.BigEndian.AppendUint16(buf, fields)
		buf = append(buf, target.leading...)
		buf = appendField(buf, 4, uint64(i+1))
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(id)))
		buf = append(buf, id...)
		buf = appendField(buf, 4, uint64(rows.scores[i]))
		buf = appendField(buf, 8, uint64(rows.reachedAtMicros[i]-epochMicros))
		if board {
			buf = appendBoardFields(buf, rows, i)
		}
		if target.cohorts != nil {
			buf = target.cohorts.appendFields(buf, i)
		}
		if len(buf) >= 1<<16 {
			if err := stop.Err(); err != nil {
				return err
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = binary.BigEndian.AppendUint16(buf, 0xffff)
	_, err := w.Write(buf)
	return err
}

// copyNull is a NULL field in binary COPY.
const copyNull = 0xffffffff

// jsonbVersion is the first byte of a jsonb value in binary COPY, before its
// text.
const jsonbVersion = 1

// appendBoardFields appends row i's subscore and metadata.
func appendBoardFields(buf []byte, rows *rankedRows, i int) []byte {
	if rows.hasSubscore[i] {
		buf = appendField(buf, 4, uint64(rows.subscores[i]))
	} else {
		buf = binary.BigEndian.AppendUint32(buf, copyNull)
	}
	m := rows.metadataOf(i)
	if m == nil {
		return binary.BigEndian.AppendUint32(buf, copyNull)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(1+len(m)))
	buf = append(buf, jsonbVersion)
	return append(buf, m...)
}

// appendFields appends row i's cohort_rank, cohort_size and next_league,
// NULL for a row in no cohort.
func (p *cohortResults) appendFields(buf []byte, i int) []byte {
	if p.ranks[i] == 0 {
		for range 3 {
			buf = binary.BigEndian.AppendUint32(buf, copyNull)
		}
		return buf
	}
	buf = appendField(buf, 4, uint64(uint32(p.ranks[i])))
	buf = appendField(buf, 4, uint64(uint32(p.sizes[i])))
	buf = binary.BigEndian.AppendUint32(buf, 2)
	return binary.BigEndian.AppendUint16(buf, uint16(p.next[i]))
}

// appendField appends a field of size 4 or 8 bytes holding v's low bytes.
func appendField(buf []byte, size int, v uint64) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(size))
	if size == 4 {
		return binary.BigEndian.AppendUint32(buf, uint32(v))
	}
	return binary.BigEndian.AppendUint64(buf, v)
}
