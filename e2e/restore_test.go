package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/db"
	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// Issue 28 item 4, the runbook of docs/OPERATIONS.md: a base backup taken
// mid-month, with the service running on a primary that archives its WAL,
// restored into new servers, to a restore point made after the previous
// month's close and to the time of that point. The service started on each
// restored database answers every query about the closed month as it did at
// the point, the open month holds the events written before the point and
// none of those after it, and nothing that had completed before the point
// runs again: no close, no webhook message. The one message recorded before
// the point and delivered after it is sent again with the same id.
func TestRestore_ToAPointAfterACloseRepeatsNothing(t *testing.T) {
	primary := pgtest.StartArchived(t)
	receiver := newWebhookReceiver(t, 0)
	h := runPastThePoint(t, primary, receiver)
	var restored []*server
	for _, target := range []pgtest.RestoreTarget{{Name: h.point}, {Time: h.pointAt}} {
		restored = append(restored, restoreAndCompare(t, primary, h, target, receiver))
	}
	for _, r := range restored {
		waitForSettlement(t, r, arenaBoard, h.period, "DELIVERED")
	}
	// Both restored instances run their scheduler and deliverer every
	// 100 ms: 20 of their rounds repeat nothing more.
	time.Sleep(2 * time.Second)
	got := receiver.received()[len(h.sent):]
	if len(got) != len(restored) || got[0].id != h.pending || got[1].id != h.pending {
		t.Fatalf("after the restores the receiver got %s; want the message pending at the point, %s, once from each",
			describe(got), h.pending)
	}
	r := restored[0]
	checkDeliveryAfterRestore(t, r, receiver, h.past, h.atPoint.closed[1].Player.ID, receiver.received())
	// The game server may resend what it was told was stored after the
	// point: the events are new to the restored database, the earlier ones
	// duplicates.
	for i, res := range r.submit(t, h.after...) {
		if res.Status != "APPLIED" {
			t.Errorf("event %s, written after the point, sent again: %s", h.after[i].EventID, res.Status)
		}
	}
	for i, res := range r.submit(t, h.before...) {
		if res.Status != "DUPLICATE" {
			t.Errorf("event %s, written before the point, sent again: %s", h.before[i].EventID, res.Status)
		}
	}
}

// history is what happened on the archived primary, and what the service
// answered at the restore point.
type history struct {
	past, open    string // the month closed before the point, the open one
	backup        pgtest.Backup
	point         string // the restore point's name
	pointAt       time.Time
	atPoint       answers
	digest        string // the closed month's, at the point
	version       int    // its ranks version at the point
	before, after []scoreEvent
	period        string     // the arena board's period, closed before the point
	pending       string     // the id of its message, delivered after the point
	sent          []delivery // every request the receiver got from the primary
}

// arenaBoard is the board whose period.closed is pending at the point.
const arenaBoard = "arena"

// runPastThePoint runs the service on primary: a past month seeded with 3000
// players; round a, 300 players in the open month; the base backup; the past
// month closed and its message delivered; round b, 100 of the players gain
// points and 100 join; a board's period closed, its period.closed refused
// by the receiver until after the point; the restore point, read back
// through the service; round c, 100 others gain points and 100 more join;
// the past month's winner removed, which sends month.corrected. Then the WAL
// is archived and the service stopped.
func runPastThePoint(t *testing.T, primary *pgtest.Archived, receiver *webhookReceiver) history {
	t.Helper()
	past, open := previousMonth(t), currentMonth(t)
	h := history{past: past.month, open: open.month, point: "after-close"}
	seedMonthAt(t, primary.URL, past.month, 3000)
	s, m := startInstance(t, withLifecycle(receiver), func(c *app.Config) {
		c.DatabaseURL = primary.URL
		c.AutoClose = false // the test closes the month itself, after the backup
	})
	s.submit(t, round(open, "a", 0, 0, 300)...)
	h.backup = primary.BaseBackup(t, "base")

	closedInfo := s.closeMonth(t, past.month)
	if closedInfo.Status != "CLOSED" || closedInfo.Digest == nil {
		t.Fatalf("closeMonth: %+v", closedInfo)
	}
	h.digest = *closedInfo.Digest
	waitForMonth(t, s, past.month, delivered)
	h.before = append(round(open, "b", 300, 0, 100), round(open, "b", 400, 300, 400)...)
	s.submit(t, h.before...)
	refuse(receiver, true)
	h.period = arena(t, s, arenaBoard, "DESC", 4)
	h.pointAt = primary.CreateRestorePoint(t, h.point)
	h.atPoint = readAnswers(t, s, past.month, open.month)
	h.version = ranksVersion(t, primary.URL, past.month)
	refuse(receiver, false)
	waitForSettlement(t, s, arenaBoard, h.period, "DELIVERED")

	h.after = append(round(open, "c", 500, 100, 200), round(open, "c", 600, 400, 500)...)
	s.submit(t, h.after...)
	if r := s.correct(t, past.month, h.atPoint.closed[0].Player.ID, nil, "after the point"); len(r.Errors) > 0 {
		t.Fatalf("correctScore: %s", r.Body)
	}
	waitForMonth(t, s, past.month, delivered)
	primary.ArchiveCurrentWAL(t)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	h.sent = receiver.received()
	ids := map[string]string{} // type: id
	for _, d := range h.sent {
		if id, ok := ids[d.eventType]; ok && id != d.id {
			t.Fatalf("before the restore the receiver got two messages of type %s: %s", d.eventType, describe(h.sent))
		}
		ids[d.eventType] = d.id
	}
	if len(ids) != 3 || ids["month.closed"] == "" || ids["period.closed"] == "" || ids["month.corrected"] == "" {
		t.Fatalf("before the restore the receiver got %s", describe(h.sent))
	}
	h.pending = ids["period.closed"]
	return h
}

// restoreAndCompare restores h's backup to target, starts the service on it
// as production runs it, and checks its answers against those at the point.
func restoreAndCompare(t *testing.T, primary *pgtest.Archived, h history, target pgtest.RestoreTarget, receiver *webhookReceiver) *server {
	t.Helper()
	started := time.Now()
	url := primary.Restore(t, h.backup, target)
	restoreTook := time.Since(started)
	r, _ := startInstance(t, withLifecycle(receiver), func(c *app.Config) { c.DatabaseURL = url })
	t.Logf("restore to %s: base backup of %s and %d archived WAL segments, restored and promoted in %s; service ready %s after the restore began",
		describeTarget(target), byteSize(t, filepath.Join(primary.Dir, h.backup.Name, "base.tar")), walSegments(t, primary.Dir),
		restoreTook.Round(time.Millisecond), time.Since(started).Round(time.Millisecond))
	compareAnswers(t, h.atPoint, readAnswers(t, r, h.past, h.open))
	if got := ranksVersion(t, url, h.past); got != h.version {
		t.Errorf("the closed month's ranks version is %d after the restore, %d at the point", got, h.version)
	}
	if info := r.month(t, h.past); info.Status != "CLOSED" || info.Digest == nil || *info.Digest != h.digest {
		t.Errorf("the closed month after the restore: %+v", info)
	}
	return r
}

// describeTarget names a restore target for the log.
func describeTarget(target pgtest.RestoreTarget) string {
	if target.Name != "" {
		return "the point " + target.Name
	}
	return "the time " + target.Time.UTC().Format(time.RFC3339Nano)
}

// describe lists deliveries by type and id.
func describe(deliveries []delivery) string {
	var list []string
	for _, d := range deliveries {
		list = append(list, d.eventType+" "+d.id)
	}
	return "[" + strings.Join(list, ", ") + "]"
}

// refuse makes receiver answer 500 to every request while on.
func refuse(receiver *webhookReceiver, on bool) {
	receiver.mu.Lock()
	defer receiver.mu.Unlock()
	receiver.failures = 0
	if on {
		receiver.failures = 1 << 30
	}
}

// waitForSettlement waits, up to a minute, until the settlement of board's
// period has status.
func waitForSettlement(t *testing.T, s *server, board, period, status string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var data struct {
			Period struct {
				Settlement *struct {
					Status string `json:"status"`
				} `json:"settlement"`
			} `json:"period"`
		}
		s.mustDo(t, "", `query($b: ID!, $k: String!) { period(board: $b, key: $k) { settlement { status } } }`,
			map[string]any{"b": board, "k": period}, &data)
		if st := data.Period.Settlement; st != nil && st.Status == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the settlement of %s/%s is not %s after a minute: %+v", board, period, status, data.Period.Settlement)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// delivered says a month's settlement is done.
func delivered(info *monthInfo) bool {
	return info.Settlement != nil && info.Settlement.Status == "DELIVERED"
}

// seedMonthAt fills month with players on the database at url.
func seedMonthAt(t *testing.T, url, month string, players int) {
	t.Helper()
	m, err := leaderboard.ParseMonth(month)
	if err != nil {
		t.Fatal(err)
	}
	store, err := db.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.SeedPeriod(context.Background(), leaderboard.MainBoard, m.String(), players, db.SeedOptions{RandomSeed: 11}); err != nil {
		t.Fatal(err)
	}
}

// round returns an event named prefix for each of players from..to-1 of
// month c, adding points at clock ticks from tick on.
func round(c clock, prefix string, tick, from, to int) []scoreEvent {
	var events []scoreEvent
	for i := from; i < to; i++ {
		player := fmt.Sprintf("p%d", i)
		events = append(events, named(ev(prefix+player, player, "ADD", 1+(i*37)%500, c.at(tick+i-from)), "Player "+player))
	}
	return events
}

// answers are what the service says about a closed month and an open one.
type answers struct {
	months       []monthInfo
	closed, open []rankEntry
	standings    []*standing
}

// readAnswers reads months, both tables page by page, and the standings with
// neighbours of every 50th player of each.
func readAnswers(t *testing.T, s *server, closedMonth, openMonth string) answers {
	t.Helper()
	a := answers{months: s.months(t, 12), closed: s.table(t, closedMonth), open: s.table(t, openMonth)}
	for i := 0; i < len(a.closed); i += 50 {
		a.standings = append(a.standings, s.standing(t, closedMonth, a.closed[i].Player.ID))
	}
	for i := 0; i < len(a.open); i += 50 {
		a.standings = append(a.standings, s.standing(t, openMonth, a.open[i].Player.ID))
	}
	return a
}

// compareAnswers reports each part of after that differs from before.
func compareAnswers(t *testing.T, before, after answers) {
	t.Helper()
	sameRows(t, "months", before.months, after.months)
	sameRows(t, "the closed month's table", before.closed, after.closed)
	sameRows(t, "the open month's table", before.open, after.open)
	sameRows(t, "standings", before.standings, after.standings)
}

// sameRows reports the first row where after differs from before, as JSON.
func sameRows[T any](t *testing.T, what string, before, after []T) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: %d rows after the restore, %d at the point", what, len(after), len(before))
		return
	}
	for i := range before {
		b, a := mustJSON(t, before[i]), mustJSON(t, after[i])
		if string(a) != string(b) {
			t.Errorf("%s, row %d:\nat the point: %s\nrestored:     %s", what, i, b, a)
			return
		}
	}
}

// ranksVersion reads how many times month's final ranks were built.
func ranksVersion(t *testing.T, url, month string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var version int
	if err := conn.QueryRow(context.Background(), `SELECT ranks_version FROM periods WHERE board_id = 'main' AND key = $1`,
		month).Scan(&version); err != nil {
		t.Fatal(err)
	}
	return version
}

// checkDeliveryAfterRestore corrects player's score on the restored service
// and checks that the receiver gets that month.corrected message, with an id
// of its own, and nothing else: settlement works there and had nothing left
// to send.
func checkDeliveryAfterRestore(t *testing.T, s *server, receiver *webhookReceiver, month, player string, sent []delivery) {
	t.Helper()
	if r := s.correct(t, month, player, nil, "after the restore"); len(r.Errors) > 0 {
		t.Fatalf("correctScore: %s", r.Body)
	}
	waitForMonth(t, s, month, delivered)
	got := receiver.received()[len(sent):]
	if len(got) != 1 || got[0].eventType != "month.corrected" {
		t.Fatalf("after a correction on the restored database the receiver got %s", describe(got))
	}
	var body struct{ Correction struct{ PlayerID string } }
	if err := json.Unmarshal(got[0].body, &body); err != nil || body.Correction.PlayerID != player {
		t.Errorf("month.corrected after the restore: %s, %v", got[0].body, err)
	}
	for _, d := range sent {
		if d.id == got[0].id {
			t.Errorf("the message after the restore reuses the id %s", d.id)
		}
	}
}

// byteSize returns the size of the file at path, for the log.
func byteSize(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%.1f MB", float64(info.Size())/1e6)
}

// walSegments counts the WAL segments in the archive at dir.
func walSegments(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "wal", "0000000*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(files)
}
