package app

import (
	"context"
	"fmt"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// demoSeed returns the random seed of month m's demo data, such as 202611:
// the same on every machine, and another for each month, so that the demo's
// two months rank their players differently.
func demoSeed(m leaderboard.Month) uint64 {
	return uint64(m.Year())*100 + uint64(m.Month())
}

// seedDemo fills the current month and the one before with the configured
// number of demo players when they have no scores yet, and logs a link to
// the page and how to open it as one of them (announceDemo). The month before is past its
// end: the scheduler closes it, so the demo has a final month too.
func (m *Main) seedDemo(ctx context.Context, loc *time.Location) error {
	month := leaderboard.MonthOf(time.Now(), loc)
	for _, demo := range []leaderboard.Month{month.Prev(), month} {
		info, err := m.DB.Month(ctx, demo)
		if err != nil {
			return err
		}
		// An earlier start may have opened the month and failed to seed it.
		if info == nil || (info.Status == leaderboard.MonthOpen && info.Participants == 0) {
			m.Logger.Info("seeding a demo month", "month", demo.String(), "players", m.Config.DemoPlayers)
			if _, err := m.DB.SeedPeriod(ctx, leaderboard.MainBoard, demo.String(), m.Config.DemoPlayers,
				db.SeedOptions{RandomSeed: demoSeed(demo)}); err != nil {
				return fmt.Errorf("seed the demo month %s: %w", demo, err)
			}
		}
	}
	m.announceDemo(m.Server.URL(), month)
	return nil
}

// announceDemo logs the link to the demo month's page and, when player
// tokens are on, the player to open it as and how to get their token. The
// token itself is never logged: logs are kept and shipped where a working
// player token has no business, and it is signed with the configured secret.
func (m *Main) announceDemo(baseURL string, month leaderboard.Month) {
	link := baseURL + "/?month=" + month.String()
	if m.Config.JWTSecret == "" {
		m.Logger.Info("demo month ready: open the page", "url", link)
		return
	}
	player := db.SeedPlayerID(min(42, m.Config.DemoPlayers))
	m.Logger.Info("demo month ready: open the page; add #token=<a token of player> to see their rank", "url", link,
		"player", player, "token_command", "leaderboard player-token "+player+" --jwt-secret <LEADERBOARD_JWT_SECRET>")
}
