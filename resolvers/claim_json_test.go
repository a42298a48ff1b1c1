package resolvers

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/graph"
)

// claimStore answers every claim with its claim, or its error, or panics
// with panicWith; it counts the claims it was asked and answers every
// standing's claimedAt with the claim's.
type claimStore struct {
	claim     *leaderboard.Claim
	err       error
	panicWith string
	claims    *atomic.Int64
}

func (s claimStore) ClaimReward(context.Context, string, string, string, string) (*leaderboard.Claim, error) {
	s.claims.Add(1)
	if s.panicWith != "" {
		panic(s.panicWith)
	}
	return s.claim, s.err
}

func (s claimStore) UnclaimedRewards(context.Context, string, int) ([]leaderboard.Standing, error) {
	return nil, nil
}

func (s claimStore) ClaimedAt(context.Context, string, string, string) (*time.Time, error) {
	if s.claim == nil {
		return nil, nil
	}
	return s.claim.ClaimedAt, nil
}

// testClaim is a claim with status, as the reward service answers it: the
// standing, claimedAt and claimId set when status is CLAIMED or
// ALREADY_CLAIMED; the standing is of board with subscores, metadata, a
// tier and names that need escaping, or of main's month.
func testClaim(status leaderboard.ClaimStatus, board string) *leaderboard.Claim {
	c := &leaderboard.Claim{Status: status}
	if status != leaderboard.ClaimClaimed && status != leaderboard.ClaimAlreadyClaimed {
		return c
	}
	c.Standing = testBoardStanding(false)
	if board != leaderboard.MainBoard {
		c.Standing.Board, c.Standing.Period, c.Standing.Month = board, "2026-W44", leaderboard.Month{}
	}
	c.ClaimedAt = new(time.Date(2026, 11, 2, 3, 4, 5, 123456789, time.FixedZone("Y", -7200)))
	c.ClaimID = new(`grant "7" \ Ünïcødé`)
	c.Standing.ClaimedAt = c.ClaimedAt
	return c
}

// A claimReward answer written directly is the answer gqlgen gives, byte for
// byte, whatever the selection, the arguments, the claim, the service's
// error and the caller; and the claim is asked for as many times either
// way.
func TestWriteClaimsDirectly_AnswersAsGqlgen(t *testing.T) {
	const token = "server-token"
	secret := []byte("a-secret-of-at-least-32-bytes-long!!")
	playerToken, err := auth.PlayerToken(secret, "p-me", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	const standing = `month board period rank score reachedAt subscore metadata percentile tier total final __typename
		player { id name __typename }
		neighbours { rank score reachedAt subscore metadata __typename player { id name __typename } }`
	const all = `status claimedAt claimId __typename standing { ` + standing + ` }`
	const claim = `mutation C($b: ID!, $p: String!, $who: ID!, $id: ID!) {
		claimReward(board: $b, period: $p, playerId: $who, claimId: $id) { ` + all + ` } }`
	vars := map[string]any{"b": "ladder", "p": "2026-W44", "who": "p-x", "id": "grant-1"}
	literal := func(selection string) string {
		return `mutation { claimReward(board: "ladder", period: "2026-W44", playerId: "p-x", claimId: "g") { ` + selection + ` } }`
	}
	claimed := claimStore{claim: testClaim(leaderboard.ClaimClaimed, "ladder")}
	type testCase struct {
		name  string
		query string
		vars  map[string]any
		token string
		store claimStore
	}
	cases := []testCase{
		{"aliases", `mutation C($b: ID!, $p: String!, $who: ID!, $id: ID!) {
			got: claimReward(board: $b, period: $p, playerId: $who, claimId: $id) {
				s: status, at: claimedAt, id: claimId, t: __typename
				st: standing { r: rank, who: player { n: name, i: id }
					up: neighbours(above: 3, below: 0) { rank player { name } }
					down: neighbours(above: 0, below: 12) { r: rank }
					all: neighbours(above: 50, below: 50) { rank } } } }`, vars, token, claimed},
		{"main's month", literal(all), nil, token, claimStore{claim: testClaim(leaderboard.ClaimClaimed, leaderboard.MainBoard)}},
		{"numeric ids", `mutation { claimReward(board: "main", period: "2026-10", playerId: 42, claimId: 7) { status claimId } }`,
			nil, token, claimed},
		{"status only", literal(`status`), nil, token, claimed},
		{"standing's claimedAt", literal(`status standing { rank claimedAt }`), nil, token, claimed},
		{"fragments", literal(`...F standing { ... on Standing { rank } }`) + ` fragment F on Claim { status }`, nil, token, claimed},
		{"directives", `mutation C($yes: Boolean!) { claimReward(board: "b", period: "p", playerId: "p", claimId: "g") {
			status @include(if: $yes) claimId @skip(if: $yes) } }`, map[string]any{"yes": true}, token, claimed},
		{"directive on the field", `mutation C($yes: Boolean!) {
			claimReward(board: "b", period: "p", playerId: "p", claimId: "g") @include(if: $yes) { status } }`,
			map[string]any{"yes": true}, token, claimed},
		{"repeated field", literal(`status status standing { rank } standing { score }`), nil, token, claimed},
		{"count out of range", literal(`status standing { neighbours(above: 51) { rank } }`), nil, token, claimed},
		{"period as a number", claim, map[string]any{"b": "ladder", "p": 7, "who": "p-x", "id": "g"}, token, claimed},
		{"null claim id", claim, map[string]any{"b": "ladder", "p": "2026-W44", "who": "p-x", "id": nil}, token, claimed},
		{"claim id left out", claim, map[string]any{"b": "ladder", "p": "2026-W44", "who": "p-x"}, token, claimed},
		{"bad input", claim, vars, token,
			claimStore{err: leaderboard.Errorf(leaderboard.EBADINPUT, "claimId must be 1..128 characters")}},
		{"service unavailable", claim, vars, token, claimStore{err: leaderboard.Errorf(leaderboard.EUNAVAILABLE, "retry later")}},
		{"deadline passed", claim, vars, token, claimStore{err: context.DeadlineExceeded}},
		{"no claim, no error", claim, vars, token, claimStore{}},
		{"service panics", claim, vars, token, claimStore{panicWith: "boom"}},
		{"no token", claim, vars, "", claimed},
		{"player token", claim, vars, playerToken, claimed},
		{"two root fields", `mutation { __typename a: claimReward(board: "b", period: "p", playerId: "p", claimId: "g") { status }
			b: claimReward(board: "b", period: "p", playerId: "p", claimId: "h") { claimId standing { rank } } }`,
			nil, token, claimed},
		{"two root fields, one failing", `mutation { a: claimReward(board: "b", period: "p", playerId: "p", claimId: "g") { status }
			b: claimReward(board: "b", period: "p", playerId: "p", claimId: "h") { standing { neighbours(above: 99) { rank } } } }`,
			nil, token, claimed},
	}
	for _, status := range []leaderboard.ClaimStatus{leaderboard.ClaimClaimed, leaderboard.ClaimAlreadyClaimed,
		leaderboard.ClaimNotFinal, leaderboard.ClaimNoStanding, leaderboard.ClaimGone} {
		cases = append(cases, testCase{"every field, " + string(status), claim, vars, token,
			claimStore{claim: testClaim(status, "ladder")}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var directClaims, gqlgenClaims atomic.Int64
			handler := func(claims *atomic.Int64, opts HandlerOptions) http.Handler {
				store := c.store
				store.claims = claims
				r := &Resolver{RewardService: store, Logger: slog.New(slog.DiscardHandler)}
				return auth.New(auth.Config{ServerToken: token, JWTSecret: secret}).Middleware(NewHandler(r, opts))
			}
			assertSameAnswer(t, handler(&directClaims, HandlerOptions{}), handler(&gqlgenClaims, HandlerOptions{viaGqlgen: true}),
				c.token, c.query, c.vars)
			if d, g := directClaims.Load(), gqlgenClaims.Load(); d != g {
				t.Fatalf("claims asked %d times written directly, %d by gqlgen", d, g)
			}
		})
	}
}

// The direct answer covers what game servers ask; claimedAt on the
// standing, fragments and directives go to gqlgen.
func TestCompileSelection_Claim(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: &Resolver{}}).Schema()
	for _, c := range []struct {
		selection string
		direct    bool
	}{
		{`status claimedAt claimId __typename`, true},
		{`s: status st: standing { rank tier player { id name } neighbours(above: 2) { rank } }`, true},
		{`status standing { claimedAt }`, false},
		{`status status`, false},
		{`standing { rank } standing { score }`, false},
		{`... on Claim { status }`, false},
		{`status @skip(if: true)`, false},
		{`standing { rank @include(if: true) }`, false},
	} {
		query := `mutation { claimReward(board: "b", period: "p", playerId: "p", claimId: "g") { ` + c.selection + ` } }`
		if direct := compilesDirectly(t, schema, query, "Claim"); direct != c.direct {
			t.Errorf("%s: written directly %t, want %t", c.selection, direct, c.direct)
		}
	}
}

// The claims bench's claim and a claim with its standing are written
// directly: they save gqlgen's allocations of a field context and more per
// field (about 50 of the bench claim's 230; the rest are the request's
// parsing, auth and transport, the same either way).
func TestWriteClaimsDirectly_TakesBenchClaims(t *testing.T) {
	const token = "server-token"
	store := claimStore{claim: testClaim(leaderboard.ClaimClaimed, "ladder"), claims: new(atomic.Int64)}
	r := &Resolver{RewardService: store, Logger: slog.New(slog.DiscardHandler)}
	authn := auth.New(auth.Config{ServerToken: token}).Middleware
	direct, viaGqlgen := authn(NewHandler(r, HandlerOptions{})), authn(NewHandler(r, HandlerOptions{viaGqlgen: true}))
	vars := map[string]any{"board": "ladder", "period": "2026-W44", "player": "p-x", "claim": "grant-1"}
	for _, query := range []string{
		`mutation Claim($board: ID!, $period: String!, $player: ID!, $claim: ID!) {
			claimReward(board: $board, period: $period, playerId: $player, claimId: $claim) { status claimId claimedAt } }`,
		`mutation Claim($board: ID!, $period: String!, $player: ID!, $claim: ID!) {
			claimReward(board: $board, period: $period, playerId: $player, claimId: $claim) {
				status standing { board period rank score tier player { id name } neighbours(above: 1, below: 1) { rank } } } }`,
	} {
		allocs := func(h http.Handler) float64 {
			return testing.AllocsPerRun(20, func() { answer(t, h, token, query, vars) })
		}
		if got, gqlgen := allocs(direct), allocs(viaGqlgen); got > gqlgen-30 {
			t.Errorf("%s: %.0f allocations, gqlgen %.0f: not written directly", query, got, gqlgen)
		}
	}
}
