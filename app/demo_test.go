package app

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

// Each month's demo data has a seed of its own, the same on every machine.
func TestDemoSeed_OnePerMonthTheSameEverywhere(t *testing.T) {
	november, err := leaderboard.NewMonth(2026, time.November)
	if err != nil {
		t.Fatal(err)
	}
	if got := demoSeed(november); got != 202611 {
		t.Errorf("demoSeed(2026-11) = %d, want 202611", got)
	}
	seen := map[uint64]leaderboard.Month{}
	for m := november; m.Year() >= 2000; m = m.Prev() {
		if other, ok := seen[demoSeed(m)]; ok {
			t.Fatalf("%s and %s share the demo seed %d", m, other, demoSeed(m))
		}
		seen[demoSeed(m)] = m
	}
}

// The demo's log line never holds a player token: it names the player and
// the command that prints one.
func TestAnnounceDemo_LogsNoToken(t *testing.T) {
	november, err := leaderboard.NewMonth(2026, time.November)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m := &Main{Config: Config{JWTSecret: "a-secret-of-32-bytes-or-more-for-the-demo", DemoPlayers: 100},
		Logger: slog.New(slog.NewTextHandler(&out, nil))}
	m.announceDemo("http://127.0.0.1:8080", november)
	line := out.String()
	for _, want := range []string{`url="http://127.0.0.1:8080/?month=2026-11"`, "player=player-00000042", "leaderboard player-token player-00000042"} {
		if !strings.Contains(line, want) {
			t.Errorf("the log line does not hold %q: %s", want, line)
		}
	}
	if strings.Contains(line, "#token=ey") || strings.Contains(line, "eyJ") || strings.Contains(line, m.Config.JWTSecret) {
		t.Errorf("the log line holds a token or the secret: %s", line)
	}
}
