package e2e_test

import (
	"fmt"
	"testing"
)

// Tiers apply within the cohort, in every answer: after the close p2 is
// third of 5 on the board (60 %: no tier) but first of its cohort of 3
// (33 %: top), p3 second of 5 (40 %: top) but second of its cohort of 2
// (100 %: none). standing { tier } alone (the direct writer), with a cohort
// (gqlgen), groupStandings, unclaimedRewards and claimReward (the stored
// claim, and its retry) all answer the cohort's tier.
func TestLeagues_EveryAnswerTiersWithinTheCohort(t *testing.T) {
	s := startServer(t)
	s.mustDo(t, adminToken, createLeagueBoard, map[string]any{"id": "league", "size": 3, "leagues": threeLeagues}, nil)
	var events []map[string]any
	for i := range 5 {
		events = append(events, map[string]any{"eventId": fmt.Sprintf("e%d", i), "playerId": fmt.Sprintf("p%d", i),
			"mode": "SET", "value": 10 * (i + 1), "board": "league"})
	}
	period := *s.submitRaw(t, events...)[0].Period
	s.closeBoardPeriod(t, "league", period)
	want := map[string]string{"p2": "top", "p3": "-"}
	tierOf := func(tier *string) string {
		if tier == nil {
			return "-"
		}
		return *tier
	}

	for _, q := range []string{
		`query($p: String!, $id: ID!) { standing(board: "league", period: $p, playerId: $id) { tier } }`,
		`query($p: String!, $id: ID!) { standing(board: "league", period: $p, playerId: $id) { tier cohort { id } } }`,
	} {
		for player, tier := range want {
			var got struct {
				Standing struct {
					Tier *string `json:"tier"`
				} `json:"standing"`
			}
			s.mustDo(t, "", q, map[string]any{"p": period, "id": player}, &got)
			if tierOf(got.Standing.Tier) != tier {
				t.Errorf("%s: %s's tier %s, want %s", q, player, tierOf(got.Standing.Tier), tier)
			}
		}
	}
	for _, e := range s.group(t, "league", period, []string{"p2", "p3"}) {
		if got := tierOf(e.Standing.Tier); got != want[e.Standing.Player.ID] {
			t.Errorf("groupStandings: %s's tier %s, want %s", e.Standing.Player.ID, got, want[e.Standing.Player.ID])
		}
	}
	for player, tier := range want {
		var unclaimed struct {
			UnclaimedRewards []struct {
				Tier *string `json:"tier"`
			} `json:"unclaimedRewards"`
		}
		s.mustDo(t, serverToken, `query($p: ID!) { unclaimedRewards(playerId: $p) { tier } }`,
			map[string]any{"p": player}, &unclaimed)
		if u := unclaimed.UnclaimedRewards; len(u) != 1 || tierOf(u[0].Tier) != tier {
			t.Errorf("unclaimedRewards of %s: %+v, want tier %s", player, u, tier)
		}
		for _, claimID := range []string{"c1", "c1"} {
			c := s.claim(t, "league", period, player, claimID)
			if c.Standing == nil || tierOf(c.Standing.Tier) != tier {
				t.Errorf("claim of %s: %s, want tier %s", player, c.summary(), tier)
			}
		}
	}
}
