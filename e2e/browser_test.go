package e2e_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium; `make test` installs it when missing.
const chromiumPath = "/usr/bin/chromium"

// browserRow is a table row as the page renders it.
type browserRow struct {
	Rank    int    `json:"rank"`
	Player  string `json:"player"`
	Current bool   `json:"current"`
}

// newBrowser starts headless Chromium with the flags that keep it quiet on a
// machine without a network, and returns a context to drive it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("no browser at %s (`make test` installs Debian's chromium): %v", chromiumPath, err)
	}
	allocator, cancelAllocator := chromedp.NewExecAllocator(t.Context(),
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1600))
	ctx, cancelBrowser := chromedp.NewContext(allocator)
	t.Cleanup(func() { cancelBrowser(); cancelAllocator() })
	// Start the browser on this context: had a step's shorter-lived context
	// started it, the step's end would close it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// rowsOf returns the rows of the table matched by selector.
func rowsOf(selector string) chromedp.Action[[]browserRow] {
	return chromedp.Evaluate[[]browserRow](fmt.Sprintf(`[...document.querySelectorAll(%q)].map(tr => ({
		rank: Number(tr.dataset.rank), player: tr.dataset.player, current: tr.getAttribute('aria-current') === 'true'}))`,
		selector+" tr[data-rank]"))
}

// saveScreenshot writes the page as a test artifact to e2e/artifacts/NAME.png,
// whether the test passed or not.
func saveScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	dir := cmp.Or(os.Getenv("E2E_ARTIFACTS"), "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// A player opens the page from the game with their token, picks the closed
// month, sees their rank with the ten above and below, and looks up another
// player: every rank shown matches a plain sort of what was submitted.
func TestBrowser_PickMonthLookUpPlayerSeeRanks(t *testing.T) {
	s := startServer(t)
	closed, open := previousMonth(t), currentMonth(t)

	// 40 players; scores repeat so that ties fall back to reachedAt.
	var events []scoreEvent
	type expected struct {
		player string
		score  int
		tick   int
	}
	var want []expected
	for i := range 40 {
		player, score := fmt.Sprintf("player-%02d", i), (i*37)%16*50
		events = append(events, named(ev(fmt.Sprint("b", i), player, "SET", score, closed.at(i)), fmt.Sprintf("Name %02d", i)))
		want = append(want, expected{player, score, i})
	}
	s.submit(t, events...)
	s.submit(t, ev("open-1", "player-00", "SET", 10, open.at(0)))
	s.closeMonth(t, closed.month)
	slices.SortFunc(want, func(a, b expected) int { return cmp.Or(b.score-a.score, a.tick-b.tick) })
	rankOf := map[string]int{}
	for i, w := range want {
		rankOf[w.player] = i + 1
	}
	window := func(player string) []browserRow {
		r := rankOf[player]
		var rows []browserRow
		for _, w := range want[max(0, r-11):min(len(want), r+10)] {
			rows = append(rows, browserRow{Rank: rankOf[w.player], Player: w.player, Current: w.player == player})
		}
		return rows
	}

	me := want[20].player // the middle of the table: ten above, ten below
	other := want[2].player
	ctx := newBrowser(t)
	defer saveScreenshot(t, ctx, "browser-closed-month")
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(stepCtx, actions...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}

	step("open the page", chromedp.Navigate(s.url+"/#token="+playerToken(t, me)),
		chromedp.WaitVisible(chromedp.CSS(`#leaderboard tr[data-rank]`)))
	step("pick the closed month", chromedp.SetValue(chromedp.CSS("#month"), closed.month),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('month').dispatchEvent(new Event('change', {bubbles: true}))`),
		chromedp.WaitVisible(chromedp.CSS(`#leaderboard tr[data-player="`+want[0].player+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank tr[aria-current="true"]`)))

	top, err := chromedp.Run(ctx, rowsOf("#leaderboard"))
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 25 {
		t.Fatalf("top of the table shows %d rows, want 25", len(top))
	}
	for i, row := range top {
		if row.Rank != i+1 || row.Player != want[i].player {
			t.Errorf("top row %d: %+v, want rank %d %s", i, row, i+1, want[i].player)
		}
	}
	mine, err := chromedp.Run(ctx, rowsOf("#my-rank"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mine, window(me)) {
		t.Errorf("my rank panel:\n got  %+v\n want %+v", mine, window(me))
	}
	final, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('month-info').innerText`))
	if err != nil || !strings.Contains(strings.ToLower(final), "final") {
		t.Errorf("the month panel does not say the month is final: %q, %v", final, err)
	}

	step("look up a player", chromedp.SendKeys(chromedp.CSS("#player-id"), other),
		chromedp.Click(chromedp.CSS(`#lookup button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#lookup-result tr[aria-current="true"][data-player="`+other+`"]`)))
	looked, err := chromedp.Run(ctx, rowsOf("#lookup-result"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(looked, window(other)) {
		t.Errorf("look-up of %s:\n got  %+v\n want %+v", other, looked, window(other))
	}
}
