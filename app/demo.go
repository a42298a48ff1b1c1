package app

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
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
// the page that shows one of them their rank. The month before is past its
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
			if _, err := m.DB.Seed(ctx, demo, m.Config.DemoPlayers, db.SeedOptions{RandomSeed: demoSeed(demo)}); err != nil {
				return fmt.Errorf("seed the demo month %s: %w", demo, err)
			}
		}
	}
	link := m.Server.URL() + "/?month=" + month.String()
	if m.Config.JWTSecret != "" {
		player := db.SeedPlayerID(min(42, m.Config.DemoPlayers))
		lifetime := cmp.Or(m.Config.JWTMaxLifetime, auth.DefaultMaxTokenLifetime)
		token, err := m.Config.authConfig().SignPlayerToken(player, time.Now().Add(lifetime))
		if err != nil {
			return err
		}
		link += "#token=" + token
	}
	m.Logger.Info("demo month ready: open the page", "url", link)
	return nil
}
