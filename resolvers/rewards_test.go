package resolvers_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
	"github.com/gamebackend/leaderboard/resolvers"
)

// rewardStore answers claims and unclaimed lists as its fields say, and
// records what it was asked.
type rewardStore struct {
	claim     *leaderboard.Claim
	unclaimed []leaderboard.Standing
	claimedAt *time.Time
	asked     []string
}

func (s *rewardStore) ClaimReward(_ context.Context, board, key, playerID, claimID string) (*leaderboard.Claim, error) {
	s.asked = append(s.asked, "claim "+board+" "+key+" "+playerID+" "+claimID)
	return s.claim, nil
}

func (s *rewardStore) UnclaimedRewards(_ context.Context, playerID string, first int) ([]leaderboard.Standing, error) {
	s.asked = append(s.asked, "unclaimed "+playerID+" "+strings.Repeat("+", first))
	return s.unclaimed, nil
}

func (s *rewardStore) ClaimedAt(_ context.Context, board, key, playerID string) (*time.Time, error) {
	s.asked = append(s.asked, "claimedAt "+board+" "+key+" "+playerID)
	return s.claimedAt, nil
}

// serveRewards runs one GraphQL request against the rewards of store.
func serveRewards(t *testing.T, store *rewardStore, token, query string) map[string]any {
	t.Helper()
	r := &resolvers.Resolver{RewardService: store, Logger: slog.New(slog.DiscardHandler)}
	h := auth.New(auth.Config{ServerToken: serverToken, AdminToken: "admin-token", JWTSecret: []byte("secret")}).Middleware(
		resolvers.NewHandler(r, resolvers.HandlerOptions{}))
	body, _ := json.Marshal(map[string]any{"query": query})
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	return out
}

func TestClaimReward_GameServerOnly(t *testing.T) {
	playerToken, err := auth.PlayerToken([]byte("secret"), "ann", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	const (
		claim     = `mutation { claimReward(board: "laps", period: "2026-11-19", playerId: "ann", claimId: "g1") { status } }`
		unclaimed = `{ unclaimedRewards(playerId: "ann") { rank } }`
	)
	for _, token := range []string{"admin-token", playerToken} {
		for _, q := range []string{claim, unclaimed} {
			store := &rewardStore{}
			out := serveRewards(t, store, token, q)
			if got := codes(out); !slices.Equal(got, []string{leaderboard.EFORBIDDEN}) || len(store.asked) > 0 {
				t.Fatalf("%s: codes %v, store asked %v", q, got, store.asked)
			}
		}
	}
	at := time.Date(2026, 11, 19, 1, 0, 0, 0, time.UTC)
	store := &rewardStore{claim: &leaderboard.Claim{Status: leaderboard.ClaimAlreadyClaimed, ClaimID: new("g0"), ClaimedAt: &at,
		Standing: &leaderboard.Standing{RankEntry: leaderboard.RankEntry{Rank: 2, Player: leaderboard.Player{ID: "ann"}},
			Board: "laps", Period: "2026-11-19", Total: 4, Final: true, Tier: new("silver"), ClaimedAt: &at}}}
	out := serveRewards(t, store, serverToken, `mutation { claimReward(board: "laps", period: "2026-11-19", playerId: "ann", claimId: "g1") {
		status claimId claimedAt standing { rank tier total percentile claimedAt } } }`)
	got, _ := json.Marshal(out)
	const want = `{"data":{"claimReward":{"claimId":"g0","claimedAt":"2026-11-19T01:00:00Z","standing":{"claimedAt":"2026-11-19T01:00:00Z","percentile":75,"rank":2,"tier":"silver","total":4},"status":"ALREADY_CLAIMED"}}}`
	if string(got) != want || !slices.Equal(store.asked, []string{"claim laps 2026-11-19 ann g1"}) {
		t.Fatalf("answer %s, store asked %v", got, store.asked)
	}
}

func TestUnclaimedRewards_FirstAndClaimedAt(t *testing.T) {
	for _, c := range []struct {
		first string
		want  []string
		code  string
	}{
		{"", []string{"unclaimed ann " + strings.Repeat("+", 50)}, ""},
		{", first: 0", []string{"unclaimed ann "}, ""},
		{", first: 100", []string{"unclaimed ann " + strings.Repeat("+", 100)}, ""},
		{", first: 101", nil, leaderboard.EBADINPUT},
		{", first: -1", nil, leaderboard.EBADINPUT},
	} {
		store := &rewardStore{}
		out := serveRewards(t, store, serverToken, `{ unclaimedRewards(playerId: "ann"`+c.first+`) { rank } }`)
		if got := codes(out); (c.code == "" && got != nil) || (c.code != "" && !slices.Equal(got, []string{c.code})) ||
			!slices.Equal(store.asked, c.want) {
			t.Fatalf("%s: codes %v, store asked %v", c.first, got, store.asked)
		}
	}

	// claimedAt reads the claims for a final standing it does not know
	// about, never for a live one.
	at := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	store := &rewardStore{claimedAt: &at, unclaimed: []leaderboard.Standing{
		{Board: "laps", Period: "2026-11-19", Final: true, RankEntry: leaderboard.RankEntry{Player: leaderboard.Player{ID: "ann"}}},
		{Board: "laps", Period: "2026-11-20", RankEntry: leaderboard.RankEntry{Player: leaderboard.Player{ID: "ann"}}},
	}}
	out := serveRewards(t, store, serverToken, `{ unclaimedRewards(playerId: "ann") { period claimedAt } }`)
	got, _ := json.Marshal(out)
	const want = `{"data":{"unclaimedRewards":[{"claimedAt":"2026-11-21T00:00:00Z","period":"2026-11-19"},{"claimedAt":null,"period":"2026-11-20"}]}}`
	if string(got) != want || !slices.Contains(store.asked, "claimedAt laps 2026-11-19 ann") || len(store.asked) != 2 {
		t.Fatalf("answer %s, store asked %v", got, store.asked)
	}
}

// Standing.claimedAt is the game-server and admin roles' to read: anyone
// else, a player or a caller without a token, reads null, even where the
// standing already knows it, and the claims are not read for them.
func TestStandingClaimedAt_GameServerAndAdminOnly(t *testing.T) {
	at := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	known := leaderboard.Standing{Board: "laps", Period: "2026-11-19", Final: true, ClaimedAt: &at,
		RankEntry: leaderboard.RankEntry{Player: leaderboard.Player{ID: "ann"}}}
	for _, c := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"no token", context.Background(), false},
		{"a player", leaderboard.NewContextWithPrincipal(context.Background(), leaderboard.Principal{Role: leaderboard.RolePlayer, PlayerID: "ann"}), false},
		{"the game server", leaderboard.NewContextWithPrincipal(context.Background(), leaderboard.Principal{Role: leaderboard.RoleGameServer}), true},
		{"an admin", leaderboard.NewContextWithPrincipal(context.Background(), leaderboard.Principal{Role: leaderboard.RoleAdmin}), true},
	} {
		store := &rewardStore{}
		r := &resolvers.Resolver{RewardService: store, Logger: slog.New(slog.DiscardHandler)}
		got, err := r.Standing().ClaimedAt(c.ctx, &known)
		if err != nil || (got != nil) != c.want || (got != nil && !got.Equal(at)) || len(store.asked) > 0 {
			t.Errorf("%s: claimedAt %v, %v (store asked %v); want it shown: %t", c.name, got, err, store.asked, c.want)
		}
	}
}
