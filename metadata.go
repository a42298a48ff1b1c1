package leaderboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Limits of an event's metadata. A number or a string can grow between the
// text a client sends and the text the service stores and sends on
// (PostgreSQL writes a number out in full: 1e131071 becomes 131,072 digits),
// so the size limit applies to the normalized text NormalizeMetadata returns,
// which is what is stored, answered and put in messages.
const (
	// MaxMetadataBytes is the largest normalized metadata object an event
	// may carry. An answer or a message carries at most this many bytes of
	// a row's metadata (PostgreSQL's own text of it adds a space after each
	// ':' and ',', which the service removes before it answers).
	MaxMetadataBytes = 1024
	// MaxMetadataDepth is the deepest nesting of objects and arrays in
	// metadata, the outer object counting as 1.
	MaxMetadataDepth = 8
	// MaxMetadataNumberLen is the most characters a metadata number may take
	// written out in plain decimal, as it is stored.
	MaxMetadataNumberLen = 32
	// maxMetadataInputBytes bounds the text decoded at all: whitespace and
	// escapes may shrink in normalization, but not without limit.
	maxMetadataInputBytes = 16 * MaxMetadataBytes
)

// NormalizeMetadata checks an event's metadata and returns it as the service
// stores and sends it: a compact JSON object whose numbers are finite
// float64 values written in plain decimal (1.50e2 becomes 150), keys sorted
// and, where a key repeats, the last value kept. It returns nil for absent
// metadata, and an EBADINPUT error saying what is wrong when the metadata is
// not a JSON object, nests deeper than MaxMetadataDepth, holds a NUL
// character, a number that is not a finite float64 or takes more than
// MaxMetadataNumberLen characters, or takes more than MaxMetadataBytes once
// normalized.
func NormalizeMetadata(raw json.RawMessage) (json.RawMessage, *Error) {
	if raw == nil {
		return nil, nil
	}
	if len(raw) > maxMetadataInputBytes {
		return nil, Errorf(EBADINPUT, "metadata is %d bytes: at most %d", len(raw), MaxMetadataBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Errorf(EBADINPUT, "metadata must be a JSON object")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, Errorf(EBADINPUT, "metadata must be one JSON object")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, Errorf(EBADINPUT, "metadata must be a JSON object")
	}
	if err := normalizeValue(&v, 1); err != nil {
		return nil, err
	}
	normalized, err := json.Marshal(v)
	if err != nil {
		return nil, Errorf(EBADINPUT, "metadata must be a JSON object")
	}
	if len(normalized) > MaxMetadataBytes {
		return nil, Errorf(EBADINPUT, "metadata is %d bytes as stored: at most %d", len(normalized), MaxMetadataBytes)
	}
	return normalized, nil
}

// normalizeValue checks *v, found at depth, and writes its numbers in plain
// decimal in place.
func normalizeValue(v *any, depth int) *Error {
	switch x := (*v).(type) {
	case map[string]any:
		if depth > MaxMetadataDepth {
			return Errorf(EBADINPUT, "metadata nests deeper than %d levels", MaxMetadataDepth)
		}
		for k, item := range x {
			if strings.IndexByte(k, 0) >= 0 {
				return Errorf(EBADINPUT, "metadata key %q holds a NUL character", k)
			}
			if err := normalizeValue(&item, depth+1); err != nil {
				return err
			}
			x[k] = item
		}
	case []any:
		if depth > MaxMetadataDepth {
			return Errorf(EBADINPUT, "metadata nests deeper than %d levels", MaxMetadataDepth)
		}
		for i := range x {
			if err := normalizeValue(&x[i], depth+1); err != nil {
				return err
			}
		}
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			return Errorf(EBADINPUT, "a metadata string holds a NUL character")
		}
	case json.Number:
		n, err := plainNumber(string(x))
		if err != nil {
			return err
		}
		*v = n
	}
	return nil
}

// plainNumber returns the JSON number text as the float64 it stands for,
// written in plain decimal (as PostgreSQL writes numbers out).
func plainNumber(text string) (json.Number, *Error) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return "", Errorf(EBADINPUT, "metadata number %.40s is not a finite 64-bit float", text)
	}
	if f == 0 {
		f = 0 // -0 as 0, as PostgreSQL writes it
	}
	plain := strconv.FormatFloat(f, 'f', -1, 64)
	if len(plain) > MaxMetadataNumberLen {
		return "", Errorf(EBADINPUT, "metadata number %.40s takes %d characters written out: at most %d (send it as a string)",
			text, len(plain), MaxMetadataNumberLen)
	}
	return json.Number(plain), nil
}
