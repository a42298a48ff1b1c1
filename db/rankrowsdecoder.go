package db

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// rankedRowsDecoder is the io.Writer that readRankedRows' COPY writes to: it
// decodes PostgreSQL's binary COPY of (rank bigint, unless the rows are
// unnumbered, player_id text, score integer, reached_at timestamptz), then
// the optional columns of rows
// (rankColumns.sql), in rank order, into rows. PostgreSQL
// sends each row in a message of its own, which pgx writes in one call, but
// nothing here counts on it: a row cut short waits in partial for its rest.
type rankedRowsDecoder struct {
	rows    *rankedRows
	started bool   // the header is decoded
	ended   bool   // the trailer is decoded
	partial []byte // the start of a row whose rest has not arrived
}

// Write decodes what of b completes the rows so far and keeps the rest.
func (d *rankedRowsDecoder) Write(b []byte) (int, error) {
	data := b
	if len(d.partial) > 0 {
		d.partial = append(d.partial, b...)
		data = d.partial
	}
	used, err := d.decode(data)
	if err != nil {
		return 0, err
	}
	d.partial = append(d.partial[:0], data[used:]...)
	return len(b), nil
}

// finish returns an error unless the COPY ended whole.
func (d *rankedRowsDecoder) finish() error {
	if !d.ended || len(d.partial) > 0 {
		return errors.New("the ranks' COPY ended before its trailer")
	}
	return nil
}

// decode decodes the header, the rows and the trailer that b starts with,
// and returns how many of its bytes it used.
func (d *rankedRowsDecoder) decode(b []byte) (int, error) {
	used := 0
	if !d.started {
		n, err := decodeCopyHeader(b)
		if n == 0 || err != nil {
			return 0, err
		}
		d.started, used = true, n
	}
	for used < len(b) {
		if d.ended {
			return used, errors.New("data after the ranks' COPY trailer")
		}
		n, err := d.decodeRow(b[used:])
		if n == 0 || err != nil {
			return used, err
		}
		used += n
	}
	return used, nil
}

// decodeCopyHeader returns the length of the binary COPY header b starts
// with, 0 when b holds only part of it.
func decodeCopyHeader(b []byte) (int, error) {
	const fixed = 19 // signature, flags, extension length
	if len(b) < fixed {
		return 0, nil
	}
	if !bytes.Equal(b[:11], copyBinarySignature[:11]) {
		return 0, errors.New("not a binary COPY")
	}
	if flags := binary.BigEndian.Uint32(b[11:]); flags != 0 {
		return 0, fmt.Errorf("binary COPY flags %#x", flags)
	}
	n := fixed + int(binary.BigEndian.Uint32(b[15:]))
	if len(b) < n {
		return 0, nil
	}
	return n, nil
}

// decodeRow appends the row b starts with to d.rows, or takes the trailer,
// and returns its length, 0 when b holds only part of it.
func (d *rankedRowsDecoder) decodeRow(b []byte) (int, error) {
	if len(b) < 2 {
		return 0, nil
	}
	r := d.rows
	switch fields := int(int16(binary.BigEndian.Uint16(b))); fields {
	case -1:
		d.ended = true
		return 2, nil
	case r.columns.fields():
	default:
		return 0, fmt.Errorf("a rank row of %d fields", fields)
	}
	f := copyFields{rest: b[2:]}
	var rank []byte
	if r.columns&unnumbered == 0 {
		rank = f.next(8)
	}
	id, score, reachedAt := f.next(-1), f.next(4), f.next(8)
	var subscore, metadata, sortScore, sortSubscore, seq []byte
	if r.columns&withBoardColumns != 0 {
		subscore, metadata = f.nullable(4), f.nullable(-1)
	}
	if r.columns&withKeyColumns != 0 {
		sortScore, sortSubscore, seq = f.next(8), f.next(8), f.next(8)
	}
	if f.err != nil || f.short {
		return 0, f.err
	}
	if rank != nil {
		if got := int64(binary.BigEndian.Uint64(rank)); got != int64(r.len()+1) {
			return 0, fmt.Errorf("rank %d came after %d rows", got, r.len())
		}
	}
	if len(r.ids)+len(id) > maxIDBytes {
		return 0, errors.New("more than 4 GiB of player ids")
	}
	r.ids = append(r.ids, id...)
	r.idEnds = append(r.idEnds, uint32(len(r.ids)))
	r.scores = append(r.scores, int32(binary.BigEndian.Uint32(score)))
	r.reachedAtMicros = append(r.reachedAtMicros, int64(binary.BigEndian.Uint64(reachedAt))+postgresEpoch.UnixMicro())
	if r.columns&withBoardColumns != 0 {
		if err := r.appendBoardFields(subscore, metadata); err != nil {
			return 0, err
		}
	}
	if r.columns&withKeyColumns != 0 {
		r.sortScores = append(r.sortScores, int64(binary.BigEndian.Uint64(sortScore)))
		r.sortSubscores = append(r.sortSubscores, int64(binary.BigEndian.Uint64(sortSubscore)))
		r.seqs = append(r.seqs, int64(binary.BigEndian.Uint64(seq)))
	}
	return len(b) - len(f.rest), nil
}

// appendBoardFields appends a row's subscore and metadata, each nil for
// NULL, the metadata as binary jsonb.
func (r *rankedRows) appendBoardFields(subscore, metadata []byte) error {
	r.hasSubscore = append(r.hasSubscore, subscore != nil)
	var value int32
	if subscore != nil {
		value = int32(binary.BigEndian.Uint32(subscore))
	}
	r.subscores = append(r.subscores, value)
	if metadata != nil {
		if len(metadata) < 2 || metadata[0] != jsonbVersion {
			return errors.New("metadata that is not binary jsonb of version 1")
		}
		r.metadata = append(r.metadata, metadata[1:]...)
	}
	r.metadataEnds = append(r.metadataEnds, uint64(len(r.metadata)))
	return nil
}

// copyFields reads a binary COPY row's fields, each its length and value,
// from rest. short says rest ended within a field.
type copyFields struct {
	rest  []byte
	short bool
	err   error
}

// next returns the next field's value, which must be size bytes long
// unless size is -1, and not NULL.
func (f *copyFields) next(size int) []byte {
	value, null := f.field(size)
	if null {
		f.err = errors.New("a NULL in the ranks' COPY")
	}
	return value
}

// nullable returns the next field's value as next does, nil for NULL.
func (f *copyFields) nullable(size int) []byte {
	value, _ := f.field(size)
	return value
}

// field returns the next field's value, which must be size bytes long
// unless size is -1, or whether it is NULL.
func (f *copyFields) field(size int) (value []byte, null bool) {
	if f.short || f.err != nil {
		return nil, false
	}
	if len(f.rest) < 4 {
		f.short = true
		return nil, false
	}
	n := int(int32(binary.BigEndian.Uint32(f.rest)))
	switch {
	case n == -1:
		f.rest = f.rest[4:]
		return nil, true
	case n < 0:
		f.err = fmt.Errorf("a field of %d bytes", n)
		return nil, false
	case size >= 0 && n != size:
		f.err = fmt.Errorf("a field of %d bytes where %d were due", n, size)
		return nil, false
	case len(f.rest) < 4+n:
		f.short = true
		return nil, false
	}
	value = f.rest[4 : 4+n]
	f.rest = f.rest[4+n:]
	return value, false
}
