// Package scalar marshals the API's custom GraphQL scalars, Month and Time,
// the built-in Int and Float and the ScoreMode enum to and from the domain's types. Bad
// input becomes a BAD_USER_INPUT error.
package scalar

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/gamebackend/leaderboard"
)

// MarshalMonth writes m as "YYYY-MM".
func MarshalMonth(m leaderboard.Month) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		io.WriteString(w, strconv.Quote(m.String()))
	})
}

// UnmarshalMonth reads a "YYYY-MM" string.
func UnmarshalMonth(v any) (leaderboard.Month, error) {
	s, ok := v.(string)
	if !ok {
		return leaderboard.Month{}, leaderboard.Errorf(leaderboard.EBADINPUT, "month must be a string YYYY-MM")
	}
	return leaderboard.ParseMonth(s)
}

// MarshalTime writes t in RFC 3339 with the fraction it has, in UTC.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		io.WriteString(w, strconv.Quote(t.UTC().Format(time.RFC3339Nano)))
	})
}

// UnmarshalTime reads an RFC 3339 string. A bad score event's occurredAt
// must reject that event only, not the whole call, so anything else reads as
// the zero time, which ScoreEvent.Validate rejects with BAD_USER_INPUT; the
// resolvers of other Time arguments refuse it the same way (timeArg).
func UnmarshalTime(v any) (time.Time, error) {
	s, _ := v.(string)
	t, err := leaderboard.ParseOccurredAt(s)
	if err != nil {
		return time.Time{}, nil
	}
	return t, nil
}

// MarshalInt writes n as a JSON number.
func MarshalInt(n int) graphql.Marshaler {
	return graphql.MarshalInt(n)
}

// UnmarshalInt reads an Int as the GraphQL spec has it: a whole number
// written as one (a JSON number, or a literal in the query) within 32 bits.
// gqlgen's own reads strings of digits too, and the variables' validation
// lets them through, so `"value": "10"` would count as 10; a string, a
// fraction, an exponent or a number beyond 32 bits is an EBADINPUT error.
func UnmarshalInt(v any) (int, error) {
	var n int64
	switch v := v.(type) {
	case int:
		n = int64(v)
	case int32:
		n = int64(v)
	case int64:
		n = v
	case json.Number:
		var err error
		if n, err = strconv.ParseInt(string(v), 10, 64); err != nil {
			return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Int must be a whole number, got %s", v)
		}
	case string:
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Int must be a number, not the string %q", v)
	default:
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Int must be a whole number, got %v", v)
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Int %d is outside the 32-bit range %d..%d", n, math.MinInt32, math.MaxInt32)
	}
	return int(n), nil
}

// MarshalFloat writes f as gqlgen's own Float does: %g, and an error for
// an infinity or NaN.
func MarshalFloat(f float64) graphql.ContextMarshaler {
	return graphql.MarshalFloatContext(f)
}

// UnmarshalFloat reads a Float as the GraphQL spec has it: a number written
// as one (a JSON number, or a literal in the query). gqlgen's own reads
// strings too, Go's syntax included, so `"topPercent": "0x1p-2"` would count
// as 0.25; a string, or a number beyond float64's range, is an EBADINPUT
// error.
func UnmarshalFloat(_ context.Context, v any) (float64, error) {
	switch v := v.(type) {
	case int:
		return float64(v), nil
	case int32:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	case json.Number:
		// The decoder wrote it from JSON's number syntax: decimal only.
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Float %s is beyond the range of a 64-bit float", v)
		}
		return f, nil
	case string:
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Float must be a number, not the string %q", v)
	default:
		return 0, leaderboard.Errorf(leaderboard.EBADINPUT, "Float must be a number, got %v", v)
	}
}

// MarshalScoreMode writes m as its enum value.
func MarshalScoreMode(m leaderboard.ScoreMode) graphql.Marshaler {
	return graphql.MarshalString(string(m))
}

// UnmarshalScoreMode reads a ScoreMode spelled exactly as the schema has
// it. The variables' validation compares enum values ignoring case, so
// without this "add" would reach the resolver and reject its event, where a
// bad enum must fail the call: anything else is an EBADINPUT error.
func UnmarshalScoreMode(v any) (leaderboard.ScoreMode, error) {
	s, _ := v.(string)
	switch m := leaderboard.ScoreMode(s); m {
	case leaderboard.ModeAdd, leaderboard.ModeSet, leaderboard.ModeBest:
		return m, nil
	}
	return "", leaderboard.Errorf(leaderboard.EBADINPUT, "%v is not a valid ScoreMode: ADD, SET or BEST", v)
}

// MarshalJSON writes raw JSON compacted (PostgreSQL's jsonb prints spaces);
// nil as null.
func MarshalJSON(raw json.RawMessage) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		var compact bytes.Buffer
		if raw == nil || json.Compact(&compact, raw) != nil {
			io.WriteString(w, "null")
			return
		}
		w.Write(compact.Bytes())
	})
}

// UnmarshalJSON reads any JSON value as its compact encoding. Whether it is
// acceptable metadata is the event's to check (leaderboard.NormalizeMetadata),
// so that bad metadata rejects its event only.
func UnmarshalJSON(v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "metadata is not JSON")
	}
	return raw, nil
}
