package eventmix_test

import (
	"strings"
	"testing"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/eventmix"
)

func TestSource_Batch(t *testing.T) {
	const players = 50
	noAdd := map[string]bool{db.SeedPlayerID(7): true}
	source := eventmix.New("bench-x-1-2-", 42, players, noAdd)
	ids := map[string]bool{}
	modes := map[string]int{}
	newPlayers := 0
	for range 20 {
		for _, e := range source.Batch(100) {
			if ids[e.EventID] || !strings.HasPrefix(e.EventID, "bench-x-1-2-") {
				t.Fatalf("event id %q repeated or without the prefix", e.EventID)
			}
			ids[e.EventID] = true
			modes[string(e.Mode)]++
			switch {
			case strings.HasPrefix(e.PlayerID, "new-"):
				newPlayers++
				if e.PlayerName == nil || *e.PlayerName == "" || len(e.PlayerID) > 64 {
					t.Errorf("new player %q without a name or with too long an id", e.PlayerID)
				}
			case e.PlayerID < db.SeedPlayerID(1) || e.PlayerID > db.SeedPlayerID(players):
				t.Errorf("player %q is not one of the %d seeded", e.PlayerID, players)
			}
			if e.Mode == leaderboard.ModeAdd && (noAdd[e.PlayerID] || e.Value < 1 || e.Value > 10) {
				t.Errorf("ADD %d for %s", e.Value, e.PlayerID)
			}
			if e.Value < 0 || e.Value > 3000 {
				t.Errorf("%s %d: value outside 0..3000", e.Mode, e.Value)
			}
		}
	}
	if modes["ADD"] == 0 || modes["BEST"] == 0 || modes["SET"] == 0 || newPlayers == 0 {
		t.Errorf("modes %v, %d new players: want every kind", modes, newPlayers)
	}
}
