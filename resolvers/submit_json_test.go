package resolvers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/graph"
	"github.com/gamebackend/leaderboard/loaders"
)

// echoStore answers each event with a result that spells out the event as
// it arrived, so that two ways of reading the events must agree to give the
// same answer; or it fails the call with err.
type echoStore struct{ err error }

func (s echoStore) SubmitScores(_ context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	if s.err != nil {
		return nil, s.err
	}
	month, _ := leaderboard.ParseMonth("2026-11")
	results := make([]leaderboard.ScoreResult, len(events))
	for i, e := range events {
		name, occurred := "<none>", "<none>"
		if e.PlayerName != nil {
			name = *e.PlayerName
		}
		if e.OccurredAt != nil {
			occurred = e.OccurredAt.Format("2006-01-02T15:04:05.999999999Z07:00")
		}
		subscore := "<none>"
		if e.Subscore != nil {
			subscore = fmt.Sprint(*e.Subscore)
		}
		res := leaderboard.ScoreResult{EventID: e.EventID, PlayerID: e.PlayerID, Month: month,
			Err: leaderboard.Errorf(leaderboard.EBADINPUT, "%s %s %q %s %d %s %s %s %s", e.EventID, e.PlayerID, name, e.Mode, e.Value,
				occurred, e.BoardID(), subscore, e.Metadata)}
		if e.BoardID() != leaderboard.MainBoard {
			res.Board, res.Period, res.Month = e.Board, "period-of-"+e.EventID, leaderboard.Month{}
		}
		switch i % 4 {
		case 0:
			res.Status, res.Score, res.Err = leaderboard.StatusApplied, new(e.Value), nil
		case 1:
			res.Status, res.Score, res.Err = leaderboard.StatusDuplicate, new(i*1000), nil
		case 2:
			res.Status = leaderboard.StatusRejected
		default:
			res.Status, res.Month = leaderboard.StatusRejected, leaderboard.Month{}
		}
		results[i] = res
	}
	return results, nil
}

func (echoStore) LiveRanks(_ context.Context, keys []leaderboard.PeriodPlayer) (map[leaderboard.PeriodPlayer]int, error) {
	ranks := map[leaderboard.PeriodPlayer]int{}
	for _, k := range keys {
		ranks[k] = 100 + len(k.PlayerID)
	}
	return ranks, nil
}

// A submitScores answer written directly is the answer gqlgen gives, byte
// for byte, whatever the selection, the events, the store's answer and the
// caller.
func TestWriteSubmitsDirectly_AnswersAsGqlgen(t *testing.T) {
	const token = "server-token"
	handlers := func(store echoStore) (direct, viaGqlgen http.Handler) {
		r := &Resolver{ScoreService: store, Logger: slog.New(slog.DiscardHandler)}
		wrap := func(h http.Handler) http.Handler {
			return auth.New(auth.Config{ServerToken: token}).Middleware(loaders.Middleware(loaders.Sources{Ranks: store})(h))
		}
		return wrap(NewHandler(r, HandlerOptions{})), wrap(NewHandler(r, HandlerOptions{viaGqlgen: true}))
	}
	const all = `eventId status score error code month board period __typename`
	events := []any{
		map[string]any{"eventId": "e-1", "playerId": "p-1", "mode": "ADD", "value": -5},
		map[string]any{"eventId": `quote "q" \ back`, "playerId": 42, "playerName": "Ünïcødé ✓ \u2028 <b>", "mode": "SET", "value": 10000},
		map[string]any{"eventId": "e-3", "playerId": "p-3", "playerName": nil, "mode": "BEST", "value": 0, "occurredAt": "2026-11-03T04:05:06.123456789+01:00"},
		map[string]any{"eventId": "e-4", "playerId": "p-4", "mode": "ADD", "value": 7, "occurredAt": nil},
		map[string]any{"eventId": "e-5", "playerId": "p-5", "playerName": "", "mode": "SET", "value": 3},
		map[string]any{"eventId": "e-6", "playerId": "p-6", "mode": "SET", "value": 654321, "board": "laps.daily", "subscore": -7,
			"metadata": map[string]any{"car": "red", "laps": []any{1, 2.5}, "nested": map[string]any{"ok": true}}},
		map[string]any{"eventId": "e-7", "playerId": "p-7", "mode": "BEST", "value": 1, "board": "main", "subscore": nil, "metadata": nil},
		map[string]any{"eventId": "e-8", "playerId": "p-8", "mode": "BEST", "value": 1, "board": "laps.daily", "metadata": []any{"not", "an", "object"}},
	}
	const submit = `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { ` + all + ` } }`
	for _, c := range []struct {
		name  string
		query string
		vars  map[string]any
		token string
		store echoStore
	}{
		{"every field, events in a variable", submit, map[string]any{"events": events}, token, echoStore{}},
		{"aliases", `mutation S($events: [ScoreEvent!]!) { r: submitScores(events: $events) { id: eventId s: status, score } }`,
			map[string]any{"events": events}, token, echoStore{}},
		{"events written in the query", `mutation { submitScores(events: [
			{eventId: "a", playerId: "p", mode: ADD, value: 1},
			{eventId: "b", playerId: 7, playerName: "N\"n", mode: BEST, value: 9, occurredAt: "2026-11-01T00:00:00Z"},
			{eventId: "c", playerId: "p", playerName: null, mode: SET, value: 2, occurredAt: null}]) { ` + all + ` } }`,
			nil, token, echoStore{}},
		{"one event for the list", `mutation { submitScores(events: {eventId: "a", playerId: "p", mode: ADD, value: 1}) { ` + all + ` } }`,
			nil, token, echoStore{}},
		{"no events", submit, map[string]any{"events": []any{}}, token, echoStore{}},
		{"rank", `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { eventId rank } }`,
			map[string]any{"events": events}, token, echoStore{}},
		{"fragments", `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { ...F } } fragment F on ScoreResult { eventId }`,
			map[string]any{"events": events}, token, echoStore{}},
		{"directives", `mutation S($events: [ScoreEvent!]!, $yes: Boolean!) { submitScores(events: $events) { eventId @include(if: $yes) } }`,
			map[string]any{"events": events, "yes": false}, token, echoStore{}},
		{"repeated field", `mutation S($events: [ScoreEvent!]!) { submitScores(events: $events) { eventId eventId } }`,
			map[string]any{"events": events}, token, echoStore{}},
		{"bad time", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 1, "occurredAt": "yesterday"}}}, token, echoStore{}},
		{"value as a string", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": "3"}}}, token, echoStore{}},
		{"value as a fraction", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 2.5}}}, token, echoStore{}},
		{"value past 32 bits", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": int64(1) << 31}}}, token, echoStore{}},
		{"value at the top of 32 bits", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 1<<31 - 1}}}, token, echoStore{}},
		{"mode in lower case", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "add", "value": 1}}}, token, echoStore{}},
		{"zone offset past 18 hours", submit, map[string]any{"events": []any{
			map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 1, "occurredAt": "2026-11-03T04:05:06+24:00"}}}, token, echoStore{}},
		{"bad mode", submit, map[string]any{"events": []any{map[string]any{"eventId": "e", "playerId": "p", "mode": "MAX", "value": 1}}},
			token, echoStore{}},
		{"missing field", submit, map[string]any{"events": []any{map[string]any{"eventId": "e", "mode": "ADD", "value": 1}}},
			token, echoStore{}},
		{"store unavailable", submit, map[string]any{"events": events}, token,
			echoStore{err: leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later")}},
		{"too many events", submit, map[string]any{"events": events}, token,
			echoStore{err: leaderboard.Errorf(leaderboard.EBADINPUT, "a call takes at most 1000 events")}},
		{"no token", submit, map[string]any{"events": events}, "", echoStore{}},
		{"two root fields", `mutation S($events: [ScoreEvent!]!) { a: submitScores(events: $events) { eventId } b: submitScores(events: $events) { status } }`,
			map[string]any{"events": events}, token, echoStore{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			direct, viaGqlgen := handlers(c.store)
			assertSameAnswer(t, direct, viaGqlgen, c.token, c.query, c.vars)
		})
	}
}

// The direct answer covers what game servers ask; rank, fragments and
// directives go to gqlgen.
func TestCompileSelection_ScoreResult(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: &Resolver{}}).Schema()
	for _, c := range []struct {
		selection string
		direct    bool
	}{
		{`eventId status score error code month __typename`, true},
		{`id: eventId s: status`, true},
		{`eventId rank`, false},
		{`eventId eventId`, false},
		{`... on ScoreResult { eventId }`, false},
		{`eventId @skip(if: true)`, false},
	} {
		query := `mutation { submitScores(events: []) { ` + c.selection + ` } }`
		if direct := compilesDirectly(t, schema, query, "ScoreResult"); direct != c.direct {
			t.Errorf("%s: written directly %t, want %t", c.selection, direct, c.direct)
		}
	}
}

// Every way of writing an event reads back as gqlgen reads it.
func TestScoreEventsArg_ReadsWhatGqlgenValidated(t *testing.T) {
	for _, c := range []struct {
		arg any
		ok  bool
	}{
		{[]any{map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": int64(3)}}, true},
		{[]any{map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": "three"}}, false},
		{[]any{map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": "3"}}, false},
		{[]any{map[string]any{"eventId": "e", "playerId": "p", "mode": "add", "value": 3}}, false},
		{[]any{map[string]any{"eventId": "e", "playerId": "p", "mode": "ADD", "value": 1, "extra": 1}}, false},
		{[]any{"not an object"}, false},
		{map[string]any{"eventId": "e"}, false},
	} {
		if _, ok := scoreEventsArg(c.arg); ok != c.ok {
			t.Errorf("%s: read %t, want %t", fmt.Sprint(c.arg), ok, c.ok)
		}
	}
	events, ok := scoreEventsArg([]any{map[string]any{"eventId": "e", "playerId": "p", "playerName": "N",
		"mode": "BEST", "value": 9, "occurredAt": "2026-11-01T00:00:00Z"}})
	if !ok || len(events) != 1 || *events[0].PlayerName != "N" || events[0].Mode != leaderboard.ModeBest ||
		events[0].Value != 9 || !strings.HasPrefix(events[0].OccurredAt.String(), "2026-11-01 00:00:00") {
		t.Fatalf("read %+v, %t", events, ok)
	}
}
