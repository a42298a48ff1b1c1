package db

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"time"
)

// rankCopy is PostgreSQL's binary COPY of rank rows, as readRankedRows'
// query sends it, built by hand field by field.
type rankCopy struct{ buf []byte }

func newRankCopy() *rankCopy {
	return &rankCopy{buf: append([]byte(nil), copyBinarySignature...)}
}

func (c *rankCopy) row(rank int64, id string, score int32, reachedAt time.Time) *rankCopy {
	c.buf = binary.BigEndian.AppendUint16(c.buf, 4)
	c.buf = appendField(c.buf, 8, uint64(rank))
	c.buf = binary.BigEndian.AppendUint32(c.buf, uint32(len(id)))
	c.buf = append(c.buf, id...)
	c.buf = appendField(c.buf, 4, uint64(score))
	c.buf = appendField(c.buf, 8, uint64(reachedAt.Sub(postgresEpoch).Microseconds()))
	return c
}

func (c *rankCopy) end() []byte { return binary.BigEndian.AppendUint16(c.buf, 0xffff) }

// decodeInPieces decodes stream written in pieces of size bytes.
func decodeInPieces(stream []byte, size int) (*rankedRows, error) {
	d := &rankedRowsDecoder{rows: &rankedRows{}}
	for piece := range slices.Chunk(stream, size) {
		if _, err := d.Write(piece); err != nil {
			return nil, err
		}
	}
	return d.rows, d.finish()
}

// However the COPY's bytes are cut, the rows decode the same.
func TestRankedRowsDecoder_DecodesRowsCutAnywhere(t *testing.T) {
	at := time.Date(2026, 10, 3, 4, 5, 6, 789000, time.UTC)
	stream := newRankCopy().
		row(1, "player-1", 10000, at).
		row(2, "", 0, at.Add(time.Microsecond)).
		row(3, "pläyer-ü", 7, postgresEpoch.Add(-time.Hour)).
		end()
	for size := 1; size <= len(stream); size++ {
		rows, err := decodeInPieces(stream, size)
		if err != nil {
			t.Fatalf("in pieces of %d: %v", size, err)
		}
		if rows.len() != 3 {
			t.Fatalf("in pieces of %d: %d rows, want 3", size, rows.len())
		}
		got := []string{string(rows.id(0)), string(rows.id(1)), string(rows.id(2))}
		if want := []string{"player-1", "", "pläyer-ü"}; !slices.Equal(got, want) {
			t.Fatalf("in pieces of %d: ids %q, want %q", size, got, want)
		}
		if want := []int32{10000, 0, 7}; !slices.Equal(rows.scores, want) {
			t.Fatalf("in pieces of %d: scores %v, want %v", size, rows.scores, want)
		}
		if e := rows.entry(0); !e.ReachedAt.Equal(at) {
			t.Fatalf("in pieces of %d: reached at %v, want %v", size, e.ReachedAt, at)
		}
		if e := rows.entry(2); !e.ReachedAt.Equal(postgresEpoch.Add(-time.Hour)) {
			t.Fatalf("in pieces of %d: reached at %v before PostgreSQL's epoch", size, e.ReachedAt)
		}
	}
}

// A COPY that is cut short, out of order, NULL, or not the ranks' shape
// is an error, never rows.
func TestRankedRowsDecoder_RejectsWhatIsNotTheRanks(t *testing.T) {
	at := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	whole := newRankCopy().row(1, "a", 5, at).row(2, "b", 4, at).end()
	withNull := newRankCopy().buf
	withNull = binary.BigEndian.AppendUint16(withNull, 4)
	withNull = appendField(withNull, 8, 1)
	withNull = binary.BigEndian.AppendUint32(withNull, 0xffffffff)
	threeFields := binary.BigEndian.AppendUint16(newRankCopy().buf, 3)
	for name, tc := range map[string]struct {
		stream []byte
		want   string
	}{
		"no trailer":       {whole[:len(whole)-2], "before its trailer"},
		"cut within a row": {whole[:len(whole)-9], "before its trailer"},
		"ranks skipped":    {newRankCopy().row(1, "a", 5, at).row(3, "b", 4, at).end(), "rank 3 came after 1 rows"},
		"a NULL id":        {withNull, "NULL"},
		"three fields":     {threeFields, "3 fields"},
		"after the end":    {append(slices.Clone(whole), 0, 4), "after the ranks' COPY trailer"},
		"not binary":       {[]byte("1\tplayer\t5\t2026-10-03\n\\.\n....."), "not a binary COPY"},
		"a short score": {func() []byte {
			b := binary.BigEndian.AppendUint16(newRankCopy().buf, 4)
			b = appendField(b, 8, 1)
			b = append(binary.BigEndian.AppendUint32(b, 1), 'a')
			return appendField(b, 8, 5)
		}(), "8 bytes where 4 were due"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, size := range []int{1, 7, len(tc.stream)} {
				_, err := decodeInPieces(tc.stream, size)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("in pieces of %d: error %v, want one saying %q", size, err, tc.want)
				}
			}
		})
	}
}

// boardRow appends a row as a period's load reads it (withBoardColumns and
// withKeyColumns): a nil subscore or metadata is NULL.
func (c *rankCopy) boardRow(rank int64, id string, score int32, reachedAt time.Time, subscore *int32, metadata string,
	sortScore, sortSubscore, seq int64) *rankCopy {
	c.buf = binary.BigEndian.AppendUint16(c.buf, 9)
	c.buf = appendField(c.buf, 8, uint64(rank))
	c.buf = binary.BigEndian.AppendUint32(c.buf, uint32(len(id)))
	c.buf = append(c.buf, id...)
	c.buf = appendField(c.buf, 4, uint64(score))
	c.buf = appendField(c.buf, 8, uint64(reachedAt.Sub(postgresEpoch).Microseconds()))
	if subscore == nil {
		c.buf = binary.BigEndian.AppendUint32(c.buf, copyNull)
	} else {
		c.buf = appendField(c.buf, 4, uint64(*subscore))
	}
	if metadata == "" {
		c.buf = binary.BigEndian.AppendUint32(c.buf, copyNull)
	} else {
		c.buf = binary.BigEndian.AppendUint32(c.buf, uint32(1+len(metadata)))
		c.buf = append(append(c.buf, jsonbVersion), metadata...)
	}
	for _, k := range []int64{sortScore, sortSubscore, seq} {
		c.buf = appendField(c.buf, 8, uint64(k))
	}
	return c
}

// A board's rows decode with their subscores, metadata and keys, NULLs
// included, however the COPY's bytes are cut; and the final ranks written
// from them carry the subscores and metadata as they came.
func TestRankedRowsDecoder_DecodesBoardRows(t *testing.T) {
	at := time.Date(2026, 11, 20, 1, 2, 3, 4000, time.UTC)
	stream := newRankCopy().
		boardRow(1, "a", -5, at, new(int32(-7)), `{"k": 1}`, -9, 3, 11).
		boardRow(2, "bb", 2_000_000_000, at, nil, "", 4, 0, 12).
		end()
	for size := 1; size <= len(stream); size++ {
		d := &rankedRowsDecoder{rows: &rankedRows{columns: withBoardColumns | withKeyColumns}}
		for piece := range slices.Chunk(stream, size) {
			if _, err := d.Write(piece); err != nil {
				t.Fatalf("in pieces of %d: %v", size, err)
			}
		}
		if err := d.finish(); err != nil {
			t.Fatalf("in pieces of %d: %v", size, err)
		}
		rows := d.rows
		first, second := rows.entry(0), rows.entry(1)
		if first.Subscore == nil || *first.Subscore != -7 || string(first.Metadata) != `{"k": 1}` || first.Score != -5 {
			t.Fatalf("in pieces of %d: first row %+v", size, first)
		}
		if second.Subscore != nil || second.Metadata != nil || second.Score != 2_000_000_000 || second.Player.ID != "bb" {
			t.Fatalf("in pieces of %d: second row %+v", size, second)
		}
		if k := rows.key(0); k.sortScore != -9 || k.sortSubscore != 3 || k.seq != 11 || !k.reachedAt.Equal(at) {
			t.Fatalf("in pieces of %d: first key %+v", size, k)
		}
	}

	rows, err := decodeInPieces(newRankCopy().row(1, "x", 1, at).end(), 3)
	if err != nil {
		t.Fatal(err)
	}
	rows.columns = withBoardColumns
	rows.subscores, rows.hasSubscore = []int32{6}, []bool{true}
	rows.metadata, rows.metadataEnds = []byte(`{}`), []uint64{2}
	var written bytes.Buffer
	bucket := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := writeCopyBinary(t.Context(), &written, periodTarget(42, bucket), rows); err != nil {
		t.Fatal(err)
	}
	want := binary.BigEndian.AppendUint16(slices.Clone(copyBinarySignature), 8)
	want = appendField(want, 4, uint64(postgresDay(bucket)))
	want = appendField(want, 4, 42)
	want = appendField(want, 4, 1)
	want = append(binary.BigEndian.AppendUint32(want, 1), 'x')
	want = appendField(want, 4, 1)
	want = appendField(want, 8, uint64(at.Sub(postgresEpoch).Microseconds()))
	want = appendField(want, 4, 6)
	want = append(binary.BigEndian.AppendUint32(want, 3), jsonbVersion, '{', '}')
	want = binary.BigEndian.AppendUint16(want, 0xffff)
	if !bytes.Equal(written.Bytes(), want) {
		t.Fatalf("wrote\n%x\nwant\n%x", written.Bytes(), want)
	}
}
