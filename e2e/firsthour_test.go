package e2e_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
)

// With demo players, the month before is seeded past its end and closes
// within seconds of the start, not at the scheduler's second look (an hour
// away here): the first look comes once the service serves and has seeded.
func TestFirstHour_DemoMonthBeforeClosesSoonAfterStart(t *testing.T) {
	pg.Reset(t)
	start := time.Now()
	i := startLogged(t, func(c *app.Config) {
		c.DemoPlayers, c.CloseGrace, c.AutoClose, c.SchedulerInterval = 50, 0, true, time.Hour
	})
	month := previousMonth(t).month
	for {
		info := i.month(t, month)
		if info != nil && info.Status == "CLOSED" {
			break
		}
		if time.Since(start) > 15*time.Second {
			t.Fatalf("the demo month before is %+v 15 s after the start", info)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the demo month before closed %s after the start", time.Since(start).Round(10*time.Millisecond))
}

// A second instance on a port in use says so, and nothing before it warns
// of a database that is fine.
func TestFirstHour_PortInUseIsTheOnlyComplaint(t *testing.T) {
	pg.Reset(t)
	first := startLogged(t)
	log := newLogBuffer(t)
	second := &app.Main{
		Config: app.Config{ListenAddr: strings.TrimPrefix(first.url, "http://"), DatabaseURL: pg.URL, Timezone: "UTC",
			SnapshotPlayers: 1000, SchedulerInterval: 100 * time.Millisecond},
		Logger: slog.New(slog.NewTextHandler(log, nil)),
	}
	err := second.Run(context.Background())
	second.Close()
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("a second instance on %s: %v", first.url, err)
	}
	if warnings := regexp.MustCompile(`(?m)^.*level=(WARN|ERROR).*$`).FindAllString(log.String(), -1); len(warnings) > 0 {
		t.Errorf("before the port in use, the log said: %q", warnings)
	}
}

// A correction is logged, with the month, the player, the totals before
// and after, the reason and who made it; the explorer's address is logged
// at start; closeMonth of a CLOSED month starts no period close; and no metric
// series stays behind for a month closed, or for one that never opened.
func TestFirstHour_LogsAndMetricsSayWhatHappened(t *testing.T) {
	pg.Reset(t)
	i := startLogged(t, func(c *app.Config) { c.GraphiQL = true })
	if !strings.Contains(i.log.String(), `msg="GraphQL explorer" url=`+i.url+"/graphiql") {
		t.Errorf("the explorer's address is not logged")
	}

	c, past := currentMonth(t), previousMonth(t)
	i.submit(t, ev("e1", "p1", "SET", 10, c.at(0)), ev("e2", "p2", "SET", 7, past.at(0)))
	if codes := i.correct(t, c.month, "p1", new(5), "double-counted match").Codes(); len(codes) != 0 {
		t.Fatalf("correctScore: %v", codes)
	}
	corrected := regexp.MustCompile(`msg="score corrected" board=main period=` + c.month +
		` player=p1 before=10 after=5 reason="double-counted match" by=ADMIN correction=\S+ request_id=\S+`)
	if !corrected.MatchString(i.log.String()) {
		t.Errorf("the correction is not logged as %s", corrected)
	}

	if info := i.closeMonth(t, past.month); info.Status != "CLOSED" {
		t.Fatalf("close: %+v", info)
	}
	if info := i.closeMonth(t, past.month); info.Status != "CLOSED" {
		t.Fatalf("close again: %+v", info)
	}
	i.expectError(t, adminToken, `mutation { closeMonth(month: "0001-01") { status } }`, nil, "NOT_FOUND")
	if n := strings.Count(i.log.String(), `msg="period close started"`); n != 1 {
		t.Errorf("%d period closes started for one close and one closeMonth of the CLOSED month", n)
	}
	status, metrics := i.get(t, "/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d", status)
	}
	for _, series := range []string{"leaderboard_close_phase{", "leaderboard_close_rows{"} {
		if strings.Contains(metrics, series) {
			t.Errorf("/metrics still has %s after every period close ended:\n%s", series, grepLines(metrics, series))
		}
	}
	if !strings.Contains(metrics, `leaderboard_close_phase_duration_seconds_count{phase="ranking"} 1`) {
		t.Errorf("the close's phases are not measured")
	}
}

// seed refuses a closed month before it prints a random seed it will not
// use; close-month of month 13 says the month number is wrong.
func TestFirstHour_CommandsRefuseFirst(t *testing.T) {
	pg.Reset(t)
	past := previousMonth(t)
	i := startLogged(t)
	i.submit(t, ev("e1", "p1", "SET", 10, past.at(0)))
	i.closeMonth(t, past.month)
	t.Setenv("DATABASE_URL", pg.URL)

	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		cmd := app.NewCommand(slog.New(slog.NewTextHandler(&out, nil)))
		cmd.SetArgs(args)
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		err := cmd.Execute()
		return out.String(), err
	}
	out, err := run("seed", "--month", past.month, "--players", "10")
	if leaderboard.ErrorMessage(err) != "month "+past.month+" is CLOSED: only an open month can be seeded" {
		t.Errorf("seed of a closed month: %v", err)
	}
	if strings.Contains(out, "random seed") {
		t.Errorf("seed printed a random seed before refusing:\n%s", out)
	}
	_, err = run("close-month", "2026-13")
	if want := `month "2026-13": the month number 13 is out of range (01 to 12)`; leaderboard.ErrorMessage(err) != want {
		t.Errorf("close-month 2026-13: %q, want %q", leaderboard.ErrorMessage(err), want)
	}
}
