package e2e_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
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
// machine without a network, and any extra options, and returns a context
// to drive it.
func newBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("no browser at %s (`make test` installs Debian's chromium): %v", chromiumPath, err)
	}
	options := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1600)}, extra...)
	allocator, cancelAllocator := chromedp.NewExecAllocator(t.Context(), options...)
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

// saveScreenshot writes the whole page as a test artifact to
// e2e/artifacts/NAME.png, whether the test passed or not.
func saveScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	writeScreenshot(t, ctx, name, chromedp.FullScreenshot(100))
}

// writeScreenshot writes the image that capture takes to e2e/artifacts/NAME.png.
func writeScreenshot(t *testing.T, ctx context.Context, name string, capture chromedp.Action[[]byte]) {
	t.Helper()
	png, err := chromedp.Run(ctx, capture)
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

// countdownPattern is the countdown to a month's close.
var countdownPattern = regexp.MustCompile(`^(\d+ days? )?\d\d:\d\d:\d\d$`)

// layout is how the page sits in the viewport, scrolled to the top.
type layout struct {
	Width       float64  `json:"width"`
	Height      float64  `json:"height"`
	ScrollWidth float64  `json:"scrollWidth"`
	Overflowing []string `json:"overflowing"` // elements past the right edge, and tables scrolling sideways
	OwnRow      *box     `json:"ownRow"`      // the player's row in "My rank"; nil when absent
	PeriodCard  box      `json:"periodCard"`  // the period's card: pickers, status, countdown
}

// box is an element's bounding box in the viewport, in CSS pixels.
type box struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
}

// measureLayout scrolls to the top and measures the page.
const measureLayout = `(() => {
	window.scrollTo(0, 0);
	const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '');
	const overflowing = [...document.querySelectorAll('body *')]
		.filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).map(name);
	for (const box of document.querySelectorAll('.table-scroll')) {
		if (box.scrollWidth > box.clientWidth) overflowing.push(name(box) + ' scrolls sideways');
	}
	const box = (e) => {
		const r = e && e.getBoundingClientRect();
		return r && {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
	};
	return {width: innerWidth, height: innerHeight, scrollWidth: document.scrollingElement.scrollWidth, overflowing: overflowing.slice(0, 10),
		ownRow: box(document.querySelector('#my-rank tr[aria-current="true"]')), periodCard: box(document.getElementById('period-panel'))};
})()`

// checkLayout shows the page at width x height CSS pixels (a phone when
// width is under 480), saves a screenshot as NAME-WIDTH (and a phone's first
// screen as NAME-WIDTH-first-screen), and checks that
// nothing is wider than the viewport, that on a phone the period's card (and
// so its countdown) is whole on the first screen, and, when ownRowInView,
// that the player's own row in "My rank" is in view without scrolling.
func checkLayout(t *testing.T, ctx context.Context, name string, width, height int64, ownRowInView bool) {
	t.Helper()
	var options []chromedp.EmulateViewportOption
	if width < 480 {
		options = append(options, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, options...)); err != nil {
		t.Fatalf("%s at %dpx: %v", name, width, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measureLayout))
	if err != nil {
		t.Fatalf("%s at %dpx: %v", name, width, err)
	}
	saveScreenshot(t, ctx, fmt.Sprintf("%s-%d", name, width))
	if width < 480 {
		writeScreenshot(t, ctx, fmt.Sprintf("%s-%d-first-screen", name, width), chromedp.CaptureScreenshot())
	}
	if got.Width != float64(width) {
		t.Errorf("%s: the viewport is %vpx wide, want %d", name, got.Width, width)
	}
	if got.ScrollWidth > got.Width || len(got.Overflowing) > 0 {
		t.Errorf("%s at %dpx: page %vpx wide in a %vpx viewport; too wide: %q", name, width, got.ScrollWidth, got.Width, got.Overflowing)
	}
	if card := got.PeriodCard; width < 480 && (card.Top < 0 || card.Bottom > got.Height) {
		t.Errorf("%s at %dpx: the period card spans %v..%vpx, want it whole in the first %vpx", name, width, card.Top, card.Bottom, got.Height)
	}
	if !ownRowInView {
		return
	}
	switch r := got.OwnRow; {
	case r == nil:
		t.Errorf("%s at %dpx: no row of the player's own in My rank", name, width)
	case r.Top < 0 || r.Left < 0 || r.Bottom > got.Height || r.Right > got.Width:
		t.Errorf("%s at %dpx: the player's own row at %+v is not in the %vx%v viewport", name, width, *r, got.Width, got.Height)
	}
}

// A player opens the page from the game with their token, sees the open
// month count down to its close, picks the closed month, sees their rank with
// the ten above and below, and looks up another player: every rank shown
// matches a plain sort of what was submitted; with main the only board there
// is no board picker. On a 390px phone, in either
// month, their own row is on the first screen, and at 390 and 1280px nothing
// is wider than the viewport.
func TestBrowser_PickMonthLookUpPlayerSeeRanks(t *testing.T) {
	s := startServer(t)
	closed, open := previousMonth(t), currentMonth(t)

	// 40 players with ids and names as long as the demo's; scores repeat so
	// that ties fall back to reachedAt. The open month has scores too, so
	// that its page is laid out with a full "My rank" panel.
	var events []scoreEvent
	type expected struct {
		player string
		score  int
		tick   int
	}
	var want []expected
	for i := range 40 {
		player, score := fmt.Sprintf("player-%08d", 1_000_000+i), (i*37)%16*500
		name := fmt.Sprintf("SwiftFalcon%03d", 900+i)
		events = append(events, named(ev(fmt.Sprint("b", i), player, "SET", score, closed.at(i)), name),
			named(ev(fmt.Sprint("open-", i), player, "SET", 1_000+i*123, open.at(i)), name))
		want = append(want, expected{player, score, i})
	}
	s.submit(t, events...)
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
	defer saveScreenshot(t, ctx, "browser-look-up")
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(stepCtx, actions...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}

	step("open the page", chromedp.Navigate(s.url+"/#token="+playerToken(t, me)),
		chromedp.WaitVisible(chromedp.CSS(`#leaderboard tr[data-rank]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank tr[aria-current="true"]`)))

	// main alone: no board picker, the month picker as it was.
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[pageBoard](readBoard)); err != nil || !got.BoardHidden || got.PeriodLabel != "Month" ||
		got.Search != "?month="+open.month {
		t.Errorf("the page with main alone: %+v (%v), want no board picker, a month picker and ?month=%s", got, err, open.month)
	}

	// The open month counts down to its close, live.
	countdown := func() string {
		t.Helper()
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="countdown"]')?.textContent ?? ''`))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	before := countdown()
	time.Sleep(1200 * time.Millisecond)
	if after := countdown(); !countdownPattern.MatchString(before) || after == before {
		t.Errorf("the open month's countdown reads %q, then %q a second later; want a ticking countdown like \"3 days 04:05:06\"", before, after)
	}
	checkLayout(t, ctx, "browser-open-month", 390, 844, true)
	checkLayout(t, ctx, "browser-open-month", 1280, 800, false)

	step("pick the closed month", pick("#period", closed.month),
		// The change marks the panels busy at once, and they show the open
		// month's rows until the closed month's arrive.
		chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) tr[data-player="`+want[0].player+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank:not([aria-busy]) tr[aria-current="true"]`)))

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
	final, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('period-info').innerText`))
	if err != nil || !strings.Contains(strings.ToLower(final), "final") {
		t.Errorf("the month panel does not say the month is final: %q, %v", final, err)
	}
	closedAt, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="closed-at"]')?.getAttribute('datetime') ?? ''`))
	if at, parseErr := time.Parse(time.RFC3339Nano, closedAt); err != nil || parseErr != nil || time.Since(at) > time.Hour || time.Until(at) > time.Minute {
		t.Errorf("the closed month shows closing time %q (%v, %v), want the close of a moment ago", closedAt, err, parseErr)
	}
	checkLayout(t, ctx, "browser-closed-month", 390, 844, true)
	checkLayout(t, ctx, "browser-closed-month", 1280, 800, false)
	step("back to the browser window's size", chromedp.EmulateReset())

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

	// Friends: ids pasted with commas, spaces and new lines, one twice, two
	// that never played; those with a score ranked among themselves.
	friends := []string{want[30].player, want[4].player, want[17].player, want[0].player, want[39].player}
	pasted := friends[0] + ", " + friends[1] + "\n" + friends[2] + "  never-played," + friends[3] + "\n\n" + friends[1] + " " +
		friends[4] + ",also-unknown"
	step("rank friends", chromedp.SendKeys(chromedp.CSS("#friend-ids"), pasted),
		chromedp.Click(chromedp.CSS(`#friends button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#friends-panel:not([aria-busy]) #friends-result tr[data-group-rank]`)))
	type friendRow struct {
		GroupRank int    `json:"groupRank"`
		Rank      int    `json:"rank"`
		Player    string `json:"player"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]friendRow](`[...document.querySelectorAll('#friends-result tr[data-group-rank]')].map(tr => ({
		groupRank: Number(tr.dataset.groupRank), rank: Number(tr.dataset.rank), player: tr.dataset.player}))`))
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(friends, func(a, b string) int { return rankOf[a] - rankOf[b] })
	var wantFriends []friendRow
	for i, f := range friends {
		wantFriends = append(wantFriends, friendRow{GroupRank: i + 1, Rank: rankOf[f], Player: f})
	}
	if !slices.Equal(got, wantFriends) {
		t.Errorf("friends:\n got  %+v\n want %+v", got, wantFriends)
	}
	missing, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#friends-state .missing-ids')?.textContent ?? ''`))
	if err != nil || missing != "never-played, also-unknown" {
		t.Errorf("friends without a score: %q (%v), want \"never-played, also-unknown\"", missing, err)
	}
	writeScreenshot(t, ctx, "browser-friends", chromedp.Screenshot(chromedp.CSS("#friends-panel")))

	// Friends none of whom has a score: the panel says so in words, with
	// no table left from the group before.
	step("rank friends none of whom played", chromedp.SetValue(chromedp.CSS("#friend-ids"), "never-played, also-unknown"),
		chromedp.Click(chromedp.CSS(`#friends button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#friends-panel:not([aria-busy]) [data-testid="friends-none"]`)))
	type noneView struct {
		Said        string `json:"said"`
		Asked       string `json:"asked"`
		TableHidden bool   `json:"tableHidden"`
	}
	none, err := chromedp.Run(ctx, chromedp.Evaluate[noneView](`({said: document.querySelector('[data-testid="friends-none"]').innerText,
		asked: document.querySelector('#friends-state .missing-ids')?.textContent ?? '', tableHidden: document.getElementById('friends-table').hidden})`))
	if err != nil || !strings.HasPrefix(none.Said, "None of these 2 players has a score in ") || none.Asked != "never-played, also-unknown" ||
		!none.TableHidden {
		t.Errorf("friends none of whom played: %+v (%v), want \"None of these 2 players has a score in …\", the ids asked and no table", none, err)
	}
	writeScreenshot(t, ctx, "browser-friends-none", chromedp.Screenshot(chromedp.CSS("#friends-panel")))
}

// phoneView is what a phone shows of the page, scrolled to the top.
type phoneView struct {
	Label     string   `json:"label"`     // the period picker's label
	LabelRoom float64  `json:"labelRoom"` // the picker's width inside its padding
	LabelText float64  `json:"labelText"` // the label's width in the picker's font
	Clipped   bool     `json:"clipped"`   // the picker scrolls its content
	Countdown *box     `json:"countdown"`
	Rows      int      `json:"rows"`    // table rows shown
	Wrapped   []string `json:"wrapped"` // cells whose text takes more than one line
	Unzoned   []string `json:"unzoned"` // times shown without their zone
	Zone      string   `json:"zone"`    // the time zone the period card names
}

// measurePhone measures the period picker, the rows of the tables shown and
// the times on the page. Chromium does not widen a select's scrollWidth for a
// label longer than the select, so the label is also measured in its font. A
// cell is on one line when its text is less than 1.6 of its font size high. A time names its zone (the board's, as
// Intl writes it: "UTC", "GMT+1") in its own text or in its column's header.
const measurePhone = `(() => {
	window.scrollTo(0, 0);
	const select = document.getElementById('period');
	const style = getComputedStyle(select);
	const context = document.createElement('canvas').getContext('2d');
	context.font = style.font;
	const label = select.selectedOptions[0]?.text ?? '';
	const countdown = document.querySelector('[data-testid="countdown"]')?.getBoundingClientRect();
	const wrapped = [];
	let rows = 0;
	for (const tr of document.querySelectorAll('tr[data-rank]')) {
		if (!tr.offsetParent) continue;
		rows++;
		for (const cell of tr.cells) {
			const range = document.createRange();
			range.selectNodeContents(cell);
			if (range.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(cell).fontSize)) {
				wrapped.push(tr.closest('table').id + ' rank ' + tr.dataset.rank + ' ' + cell.className + ': ' + JSON.stringify(cell.innerText));
			}
		}
	}
	const boardZone = document.querySelector('[data-testid="time-zone"]')?.textContent;
	const zoneOf = (date) => new Intl.DateTimeFormat(undefined, {timeZoneName: 'short', timeZone: boardZone}).formatToParts(date).find((p) => p.type === 'timeZoneName').value;
	const unzoned = [];
	for (const time of document.querySelectorAll('time')) {
		if (!time.offsetParent) continue;
		const zone = zoneOf(new Date(time.dateTime));
		const cell = time.closest('td');
		const header = cell && cell.closest('table').tHead.rows[0].cells[cell.cellIndex].textContent;
		if (!time.innerText.includes(zone) && !(header ?? '').includes(zone)) unzoned.push(time.innerText + ' (' + zone + ')');
	}
	return {zone: boardZone ?? '', label, labelRoom: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
		labelText: context.measureText(label).width, clipped: select.scrollWidth > select.clientWidth,
		countdown: countdown && {top: countdown.top, bottom: countdown.bottom, left: countdown.left, right: countdown.right},
		rows, wrapped: wrapped.slice(0, 10), unzoned: unzoned.slice(0, 10)};
})()`

// pickerArrow is the width Chromium's select gives its arrow, inside the
// padding.
const pickerArrow = 20

// A new user's first look on a phone, as `make run` leaves it: the demo's
// 10,000 players a month, the page opened from the link the log prints, in a
// time zone other than the server's (Asia/Kolkata, GMT+5:30, the widest
// abbreviation; it has no summer time, so no row names a zone of its own).
// On a 390x844 phone the month card with its countdown is on the first
// screen, above the player's own row; the month picker shows its whole label;
// every table row is one line; every time shown names its zone. It saves the
// phone's first screen, and the whole page on the phone and at 768, 1100 and
// 1280px (one column, and two), to e2e/artifacts/.
func TestBrowser_PhoneShowsTheMonthOnTheFirstScreen(t *testing.T) {
	s := startServer(t, func(c *app.Config) { c.DemoPlayers = 10_000 })
	ctx := newBrowser(t)
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Kolkata"}); err != nil {
		t.Fatalf("set the browser's time zone: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	step, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(step, chromedp.Navigate(s.url+"/?month="+currentMonth(t).month+"#token="+playerToken(t, db.SeedPlayerID(42))),
		chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) #leaderboard tr[data-rank]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank:not([aria-busy]) tr[aria-current="true"]`))); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	checkLayout(t, ctx, "phone-demo", 390, 844, true)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[phoneView](measurePhone))
	if err != nil {
		t.Fatal(err)
	}
	if got.Clipped || got.LabelText > got.LabelRoom-pickerArrow {
		t.Errorf("the period picker cuts its label %q: %.0fpx of text in %.0fpx beside the arrow", got.Label, got.LabelText, got.LabelRoom-pickerArrow)
	}
	if c := got.Countdown; c == nil || c.Top < 0 || c.Bottom > 844 {
		t.Errorf("the countdown is at %+v, want it on the first 844px", c)
	}
	if got.Rows < 25+21 {
		t.Errorf("%d table rows shown, want the top 25 and My rank's 21", got.Rows)
	}
	if len(got.Wrapped) > 0 {
		t.Errorf("table cells on more than one line at 390px: %q", got.Wrapped)
	}
	if len(got.Unzoned) > 0 {
		t.Errorf("times shown without their zone: %q", got.Unzoned)
	}
	// main follows the service's zone, UTC here, not the browser's.
	if got.Zone != "UTC" {
		t.Errorf("the period card names the time zone %q, want main's UTC", got.Zone)
	}
	for _, width := range []int64{768, 1100, 1280} {
		checkLayout(t, ctx, "phone-demo", width, 800, false)
	}

	// Without a token, the top of the table comes before My rank: its first
	// rows are on the phone's first screen. The developer hint shows only on
	// the machine that runs the service (127.0.0.1 here); a player who opens
	// the service by its name does not see it.
	signedOut := func(name string, ctx context.Context, url string, wantHint bool) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
			t.Fatal(err)
		}
		step, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(step, chromedp.Navigate(url),
			chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) #leaderboard tr[data-rank]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="how-to-sign-in"]`))); err != nil {
			saveScreenshot(t, ctx, name+"-failed")
			t.Fatalf("%s: open the page: %v", name, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[signedOutView](measureSignedOut))
		if err != nil {
			t.Fatal(err)
		}
		writeScreenshot(t, ctx, name+"-390-first-screen", chromedp.CaptureScreenshot())
		if !got.TopBeforeMyRank || got.RowsOnFirstScreen < 5 {
			t.Errorf("%s: the top of the table before My rank %v, %d of its rows on the first 844px; want it first with at least 5",
				name, got.TopBeforeMyRank, got.RowsOnFirstScreen)
		}
		if got.DeveloperHint != wantHint {
			t.Errorf("%s: the developer hint is shown %v, want %v", name, got.DeveloperHint, wantHint)
		}
	}
	signedOut("phone-signed-out", ctx, s.url+"/", true)
	port := s.url[strings.LastIndexByte(s.url, ':')+1:]
	player := newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP leaderboard.example 127.0.0.1"))
	signedOut("phone-signed-out-player", player, "http://leaderboard.example:"+port+"/", false)
}

// signedOutView is what a phone shows of the page without a player token.
type signedOutView struct {
	TopBeforeMyRank   bool `json:"topBeforeMyRank"`
	RowsOnFirstScreen int  `json:"rowsOnFirstScreen"` // rows of the top of the table wholly in the viewport
	DeveloperHint     bool `json:"developerHint"`
}

const measureSignedOut = `(() => {
	window.scrollTo(0, 0);
	const top = document.getElementById('top'), mine = document.getElementById('my-rank');
	const rows = [...document.querySelectorAll('#leaderboard tr[data-rank]')]
		.filter((tr) => { const r = tr.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; });
	return {topBeforeMyRank: Boolean(top.compareDocumentPosition(mine) & Node.DOCUMENT_POSITION_FOLLOWING),
		rowsOnFirstScreen: rows.length, developerHint: Boolean(document.querySelector('[data-testid="developer-hint"]'))};
})()`

// TestBrowser_GraphiQLWorksOffline opens /graphiql with no internet and
// reads the schema in its docs: every asset comes from the server itself.
func TestBrowser_GraphiQLWorksOffline(t *testing.T) {
	s := startServer(t, func(c *app.Config) { c.GraphiQL = true })
	ctx := newBrowser(t)
	var mu sync.Mutex
	var foreign []string
	if err := chromedp.Listen(ctx, func(event any) {
		if sent, ok := event.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(sent.Request.URL, s.url) {
			mu.Lock()
			foreign = append(foreign, sent.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(step, chromedp.Navigate(s.url+"/graphiql"),
		chromedp.WaitVisible(chromedp.CSS(".CodeMirror")),
		chromedp.Click(chromedp.Search(`//div[text()="Docs"]`)),
		chromedp.Poll[chromedp.Void](`document.body.innerText.includes("submitScores")`))
	var docs string
	if err == nil {
		docs, err = chromedp.Run(step, chromedp.Evaluate[string](`document.body.innerText`))
	}
	saveScreenshot(t, ctx, "graphiql")
	if err != nil {
		t.Fatalf("GraphiQL did not show the schema's docs: %v", err)
	}
	for _, field := range []string{"standing", "leaderboard", "submitScores", "closeMonth"} {
		if !strings.Contains(docs, field) {
			t.Errorf("docs do not list %s", field)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		t.Errorf("the explorer asked other hosts: %v", foreign)
	}
}

// pick chooses value in the select matched by selector, as a user does: the
// page hears a change event.
func pick(selector, value string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
		if _, err := chromedp.SetValue(chromedp.CSS(selector), value)(ctx, target); err != nil {
			return chromedp.Void{}, err
		}
		return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
			`document.querySelector(%q).dispatchEvent(new Event('change', {bubbles: true}))`, selector))(ctx, target)
	}
}

// pageBoard is what the page shows of a board: its pickers, the period card
// and the top of the table.
type pageBoard struct {
	Boards      []string `json:"boards"`      // the board picker's options, "value=label"
	BoardHidden bool     `json:"boardHidden"` // the board picker is hidden
	PeriodLabel string   `json:"periodLabel"` // the period picker's label
	Period      string   `json:"period"`      // the period picker's chosen option
	Search      string   `json:"search"`      // the address's query
	Status      string   `json:"status"`
	OrderNote   string   `json:"orderNote"`
	ScoreHead   string   `json:"scoreHead"`
	TieBreak    bool     `json:"tieBreak"`   // the tie-break column is shown
	Scores      []int    `json:"scores"`     // the top of the table's scores shown, top down
	ScoreTexts  []string `json:"scoreTexts"` // the same scores, as shown
	ClosesAt    string   `json:"closesAt"`   // the period card's close time, as shown
	TimeZone    string   `json:"timeZone"`   // the zone the period card names
	Subscores   []string `json:"subscores"`  // the tie-breaks shown
	Countdown   string   `json:"countdown"`
	StartsAt    string   `json:"startsAt"`
	TopState    string   `json:"topState"`
	Eyebrow     string   `json:"eyebrow"`
}

const readBoard = `(() => {
	const text = (selector) => document.querySelector(selector)?.textContent.trim() ?? '';
	const period = document.getElementById('period');
	return {
		boards: [...document.getElementById('board').options].map((o) => o.value + '=' + o.text),
		boardHidden: document.getElementById('board-field').hidden,
		periodLabel: text('#period-label'), period: period.selectedOptions[0]?.text ?? '', search: location.search,
		status: text('[data-testid="period-status"]'), orderNote: text('[data-testid="order-note"]'),
		scoreHead: text('#leaderboard thead .score-head'),
		tieBreak: !document.querySelector('#leaderboard thead th.sub').hidden,
		// A plain number ("59,870") or a duration (m:ss.mmm, "1:01.250").
		scores: [...document.querySelectorAll('#leaderboard td.score')].filter((td) => td.offsetParent).map((td) => {
			const time = /^(\d+):(\d\d)\.(\d{3})$/.exec(td.textContent);
			return time ? (Number(time[1]) * 60 + Number(time[2])) * 1000 + Number(time[3]) : Number(td.textContent.replace(/\D/g, ''));
		}),
		subscores: [...document.querySelectorAll('#leaderboard td.sub')].filter((td) => td.offsetParent).map((td) => td.textContent),
		scoreTexts: [...document.querySelectorAll('#leaderboard td.score')].filter((td) => td.offsetParent).map((td) => td.textContent),
		closesAt: text('[data-testid="closes-at"] .full'), timeZone: text('[data-testid="time-zone"]'),
		countdown: text('[data-testid="countdown"]'),
		startsAt: document.querySelector('[data-testid="starts-at"]')?.getAttribute('datetime') ?? '',
		topState: text('#top-state'), eyebrow: text('#board-name'),
	};
})()`

// A player opens the page from the game: main shows as before, with a board
// picker now that there are other boards, main first and each by its name.
// They pick a daily lap-time board (ASC, ties by the higher subscore): the
// period card says lower is better, the score column says so too, the
// tie-break column shows, the top of the table runs from the lowest time up
// as a plain sort of the laps says, and "My rank" shows their lap among its
// neighbours; the address names the board and the day, and opening it again
// shows the same. Then they pick a weekly board that starts in two days: it
// says when it starts and counts down to it. On a 390px phone the period card
// and the player's own row stay on the first screen; screenshots at 390 and
// 1280px.
func TestBrowser_BoardPickerShowsALapTimeBoardAndOneNotStarted(t *testing.T) {
	s := startServer(t)
	startsAt := time.Now().UTC().Add(50 * time.Hour).Truncate(time.Second)
	s.mustDo(t, adminToken, `mutation($start: Time!) {
		laps: createBoard(id: "laps", name: "Daily lap times", reset: DAY, order: ASC, minScore: 1, maxScore: 600000,
			tiebreak: SUBSCORE_DESC, scoreFormat: DURATION_MS, timeZone: "Europe/Berlin", closeGrace: 60) { created }
		cup: createBoard(id: "cup", name: "Weekly cup", reset: WEEK, startsAt: $start) { created } }`,
		map[string]any{"start": startsAt.Format(time.RFC3339)}, nil)

	type lap struct {
		player, name string
		ms, sub      int
	}
	laps := []lap{
		{"racer-0001", "Kimi", 61_250, 2}, {"racer-0002", "Lewis", 59_870, 0}, {"racer-0003", "Max", 61_250, 7},
		{"racer-0004", "Oscar", 64_010, 1}, {"racer-0005", "Lando", 60_500, 3}, {"racer-0006", "Carlos", 72_999, 0},
		{"racer-0007", "George", 58_333, 4}, {"racer-0008", "Yuki", 66_666, 5},
	}
	var events []map[string]any
	for i, l := range laps {
		events = append(events, map[string]any{"eventId": fmt.Sprint("lap-", i), "playerId": l.player, "playerName": l.name,
			"mode": "BEST", "value": l.ms, "subscore": l.sub, "board": "laps"})
	}
	var submitted struct {
		SubmitScores []struct {
			Status string  `json:"status"`
			Error  *string `json:"error"`
		} `json:"submitScores"`
	}
	s.mustDo(t, serverToken, `mutation($e: [ScoreEvent!]!) { submitScores(events: $e) { status error } }`,
		map[string]any{"e": events}, &submitted)
	for i, r := range submitted.SubmitScores {
		if r.Status != "APPLIED" {
			t.Fatalf("lap %d: %s %v", i, r.Status, r.Error)
		}
	}
	me := laps[0].player
	s.submit(t, named(ev("main-1", me, "SET", 1_200, currentMonth(t).at(1)), "Kimi"))
	slices.SortStableFunc(laps, func(a, b lap) int { return cmp.Or(a.ms-b.ms, b.sub-a.sub) })
	var wantScores []int
	var wantRows []browserRow
	for i, l := range laps {
		wantScores = append(wantScores, l.ms)
		wantRows = append(wantRows, browserRow{Rank: i + 1, Player: l.player, Current: l.player == me})
	}
	today := time.Now().In(mustLocation(t, "Europe/Berlin"))

	ctx := newBrowser(t)
	// A viewer far from Berlin: the lap board's times are Berlin's all the same.
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "America/New_York"}); err != nil {
		t.Fatalf("set the browser's time zone: %v", err)
	}
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(stepCtx, actions...); err != nil {
			saveScreenshot(t, ctx, "boards-failed")
			t.Fatalf("%s: %v", name, err)
		}
	}
	read := func() pageBoard {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[pageBoard](readBoard))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	step("open the page", chromedp.Navigate(s.url+"/#token="+playerToken(t, me)),
		chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) #leaderboard tr[data-player="`+me+`"]`)))
	got := read()
	if want := []string{"main=Monthly event", "laps=Daily lap times", "cup=Weekly cup"}; got.BoardHidden || !slices.Equal(got.Boards, want) {
		t.Errorf("board picker (hidden %v): %q, want %q", got.BoardHidden, got.Boards, want)
	}
	if got.PeriodLabel != "Month" || got.OrderNote != "" || got.TieBreak || got.Eyebrow != "Monthly event" || got.TimeZone != "UTC" ||
		!strings.HasPrefix(got.ScoreHead, "Score") {
		t.Errorf("main's page: %+v, want a month picker, no order note, no tie-break column", got)
	}

	step("pick the lap-time board", pick("#board", "laps"),
		chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) #leaderboard tr[data-player="`+laps[0].player+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank:not([aria-busy]) tr[aria-current="true"]`)))
	checkLapBoard := func(when string) {
		t.Helper()
		got := read()
		if got.Search != "?board=laps&period="+today.Format(time.DateOnly) || got.PeriodLabel != "Day" ||
			got.Period != today.Format("Mon, Jan 2, 2006")+" · live" || got.Status != "Live" || got.Eyebrow != "Daily lap times" {
			t.Errorf("%s: %+v, want today's day of the lap board, live", when, got)
		}
		if !strings.HasPrefix(got.OrderNote, "Lower is better") || !strings.Contains(strings.ToLower(got.ScoreHead), "lower is better") {
			t.Errorf("%s: order note %q, score column %q; want both to say lower is better", when, got.OrderNote, got.ScoreHead)
		}
		// Lap times read m:ss.mmm, and the day closes at Berlin's midnight
		// (and its minute of grace), named in Berlin's time.
		if len(got.ScoreTexts) < 2 || got.ScoreTexts[0] != "0:58.333" || got.ScoreTexts[1] != "0:59.870" ||
			!strings.HasPrefix(got.ScoreHead, "Time") {
			t.Errorf("%s: scores read %q under %q, want lap times such as 0:58.333 under Time", when, got.ScoreTexts, got.ScoreHead)
		}
		if got.TimeZone != "Europe/Berlin" || !strings.Contains(got.ClosesAt, "12:01 AM GMT+") ||
			!strings.Contains(got.ClosesAt, today.AddDate(0, 0, 1).Format("Jan 2, 2006")) {
			t.Errorf("%s: the day closes %q in %q, want the next Berlin midnight and a minute, in Europe/Berlin", when, got.ClosesAt, got.TimeZone)
		}
		if !slices.Equal(got.Scores, wantScores) || !got.TieBreak || len(got.Subscores) != len(laps) || got.Subscores[3] != "7" {
			t.Errorf("%s: scores %v with tie-breaks %q (column shown %v), want %v lowest first, Max's 7 ahead of Kimi's 2",
				when, got.Scores, got.Subscores, got.TieBreak, wantScores)
		}
		for _, table := range []string{"#leaderboard", "#my-rank"} {
			rows, err := chromedp.Run(ctx, rowsOf(table))
			want := wantRows
			if table == "#leaderboard" {
				want = slices.Clone(wantRows)
				for i := range want {
					want[i].Current = false
				}
			}
			if err != nil || !slices.Equal(rows, want) {
				t.Errorf("%s: %s rows %+v (%v), want %+v", when, table, rows, err, want)
			}
		}
	}
	checkLapBoard("picked")
	checkLayout(t, ctx, "boards-laps", 390, 844, true)
	checkLayout(t, ctx, "boards-laps", 1280, 900, false)
	step("back to the browser window's size", chromedp.EmulateReset())

	step("open the address again", chromedp.Navigate(s.url+"/?board=laps&period="+today.Format(time.DateOnly)+"#token="+playerToken(t, me)),
		chromedp.WaitVisible(chromedp.CSS(`#top:not([aria-busy]) #leaderboard tr[data-player="`+laps[0].player+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#my-rank:not([aria-busy]) tr[aria-current="true"]`)))
	checkLapBoard("reopened")

	step("pick the board not started", pick("#board", "cup"),
		chromedp.Poll[chromedp.Void](`document.querySelector('[data-testid="period-status"]')?.textContent === 'Not started'`))
	got = read()
	if at, err := time.Parse(time.RFC3339Nano, got.StartsAt); err != nil || !at.Equal(startsAt) {
		t.Errorf("the board not started shows its start at %q (%v), want %s", got.StartsAt, err, startsAt.Format(time.RFC3339))
	}
	if !countdownPattern.MatchString(got.Countdown) || !strings.HasPrefix(got.Countdown, "2 days ") {
		t.Errorf("the board not started counts down %q, want about 2 days", got.Countdown)
	}
	if got.Search != "?board=cup" || got.PeriodLabel != "Week" || !strings.Contains(got.TopState, "starts") ||
		got.OrderNote != "" || got.TieBreak || len(got.Scores) != 0 {
		t.Errorf("the board not started: %+v", got)
	}
	checkLayout(t, ctx, "boards-not-started", 390, 844, false)
	checkLayout(t, ctx, "boards-not-started", 1280, 900, false)
}
