// Package scalar marshals the API's custom GraphQL scalars, Month and Time,
// to and from the domain's types. Bad input becomes a BAD_USER_INPUT error.
package scalar

import (
	"io"
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

// UnmarshalTime reads an RFC 3339 string. The only Time the API takes is a
// score event's occurredAt, and a bad one must reject that event only, not
// the whole call: anything else reads as the zero time, which
// ScoreEvent.Validate rejects with BAD_USER_INPUT.
func UnmarshalTime(v any) (time.Time, error) {
	s, _ := v.(string)
	t, err := leaderboard.ParseOccurredAt(s)
	if err != nil {
		return time.Time{}, nil
	}
	return t, nil
}
