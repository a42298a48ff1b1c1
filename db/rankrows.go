package db

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// rankedRows are a month's scores in rank order, row i holding rank i+1,
// packed in columns: ten million players take about 250 MB. The close reads
// them once and builds everything from them: the final ranks table (by
// COPY), the digest, and the rows it hands to hooks.Ranks.
type rankedRows struct {
	ids             []byte   // the players' ids back to back
	idEnds          []uint32 // row i's id is ids[idEnds[i-1]:idEnds[i]], from 0 for row 0
	scores          []int32
	reachedAtMicros []int64
}

func (r *rankedRows) len() int { return len(r.scores) }

func (r *rankedRows) id(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = r.idEnds[i-1]
	}
	return r.ids[start:r.idEnds[i]]
}

// entry returns row i as a final entry, its player without a name. The id
// shares r's memory, which is never written once read: no string for each
// of ten million rows.
func (r *rankedRows) entry(i int) leaderboard.RankEntry {
	return leaderboard.RankEntry{
		Rank:      i + 1,
		Score:     int(r.scores[i]),
		ReachedAt: time.UnixMicro(r.reachedAtMicros[i]).UTC(),
		Player:    leaderboard.Player{ID: bytesString(r.id(i))},
	}
}

// maxIDBytes is the most player ids rankedRows holds: idEnds are uint32.
const maxIDBytes = 1<<32 - 1

// readRankedRows reads table, a month's partition of scores, in rank order,
// numbered by ROW_NUMBER(). The score index holds every column read,
// already in that order: with the partition vacuumed, an index-only scan,
// and no sort. The rows come as binary COPY, which PostgreSQL sends with
// less work than a query's rows and which decodes here without pgx's
// per-row scanning (docs/PERFORMANCE.md, round nine).
func readRankedRows(ctx context.Context, tx pgx.Tx, table string) (*rankedRows, error) {
	// Sized from the statistics of the partition and of the players' ids,
	// so that no column is copied as it grows: a copy of hundreds of
	// megabytes cannot be preempted, and holds the process when the garbage
	// collector would stop it. A guess, so never above 100M rows.
	const sizes = `SELECT (SELECT reltuples FROM pg_class WHERE oid = $1::regclass),
		COALESCE((SELECT avg_width FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'players'
			AND attname = 'id'), 16)`
	var (
		estimate float64
		idBytes  int
	)
	if err := tx.QueryRow(ctx, sizes, table).Scan(&estimate, &idBytes); err != nil {
		return nil, err
	}
	n := int(min(max(estimate, 0), 100e6))
	r := &rankedRows{ids: make([]byte, 0, min(idBytes*n, maxIDBytes)), idEnds: make([]uint32, 0, n),
		scores: make([]int32, 0, n), reachedAtMicros: make([]int64, 0, n)}
	// ROW_NUMBER() looks at no frame; saying the frame is the row alone
	// spares PostgreSQL 15 comparing each row with the one before to find
	// its peers.
	read := `COPY (SELECT ROW_NUMBER() OVER (ORDER BY ` + rankOrder + ` ROWS BETWEEN CURRENT ROW AND CURRENT ROW),
		player_id, score, reached_at FROM ` + table + `) TO STDOUT WITH (FORMAT binary)`
	decoder := &rankedRowsDecoder{rows: r}
	if _, err := tx.Conn().PgConn().CopyTo(ctx, decoder, read); err != nil {
		return nil, err
	}
	return r, decoder.finish()
}

// copyFinalRanks copies rows into table, a final ranks table of month m
// made in this transaction, with COPY ... FREEZE: the rows are written
// already frozen and their pages all-visible, so neither the primary key's
// build nor any later vacuum has to visit them again. COPY writes a page at
// a time, where INSERT ... SELECT writes a row at a time: at ten million
// players 4.8 s and 464 MB of WAL against 12.4 s and 911 MB here. At the
// end of stop the copy fails, and the connection stays open.
func copyFinalRanks(ctx, stop context.Context, tx pgx.Tx, m leaderboard.Month, table string, rows *rankedRows) (int64, error) {
	growSendBuffer(tx.Conn().PgConn().Conn())
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeCopyBinary(stop, pw, m, rows)) }()
	// pgx's CopyFrom writes no FREEZE: the statement is sent as it is.
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, pr,
		`COPY `+table+` (month, rank, player_id, score, reached_at) FROM STDIN WITH (FORMAT binary, FREEZE)`)
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

// writeCopyBinary writes rows, as final ranks of month m, to w in
// PostgreSQL's binary COPY format, unless stop ends first.
func writeCopyBinary(stop context.Context, w io.Writer, m leaderboard.Month, rows *rankedRows) error {
	day := int32(m.Date().Sub(postgresEpoch) / (24 * time.Hour))
	epochMicros := postgresEpoch.UnixMicro()
	buf := append([]byte(nil), copyBinarySignature...)
	for i := range rows.len() {
		id := rows.id(i)
		buf = binary.BigEndian.AppendUint16(buf, 5)
		buf = appendField(buf, 4, uint64(day))
		buf = appendField(buf, 4, uint64(i+1))
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(id)))
		buf = append(buf, id...)
		buf = appendField(buf, 4, uint64(rows.scores[i]))
		buf = appendField(buf, 8, uint64(rows.reachedAtMicros[i]-epochMicros))
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

// appendField appends a field of size 4 or 8 bytes holding v's low bytes.
func appendField(buf []byte, size int, v uint64) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(size))
	if size == 4 {
		return binary.BigEndian.AppendUint32(buf, uint32(v))
	}
	return binary.BigEndian.AppendUint64(buf, v)
}
