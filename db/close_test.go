package db_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// submitTable submits players p0..p(n-1) with scores full of ties and
// returns them.
func submitTable(t *testing.T, store *db.DB, n int) {
	t.Helper()
	var events []leaderboard.ScoreEvent
	for i := range n {
		e := event(fmt.Sprint("e", i), fmt.Sprint("p", i), leaderboard.ModeSet, (i*7)%5*10, at(i%3))
		e.PlayerName = new(fmt.Sprint("Player ", i))
		events = append(events, e)
	}
	mustSubmit(t, store, events...)
}

// digestOfPages is the digest of month m computed from its leaderboard pages.
func digestOfPages(t *testing.T, store *db.DB, m leaderboard.Month) string {
	t.Helper()
	h := sha256.New()
	after := ""
	for {
		page, err := mainLeaderboard(context.Background(), store, m, 7, after)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Edges {
			fmt.Fprintf(h, "%d,%s,%d\n", e.Entry.Rank, e.Entry.Player.ID, e.Entry.Score)
			after = e.Cursor
		}
		if !page.HasNextPage {
			return hex.EncodeToString(h.Sum(nil))
		}
	}
}

func TestCloseMonth_DigestHashesTheFinalStandings(t *testing.T) {
	store := mustOpenDB(t)
	submitTable(t, store, 40)
	info := mustClose(t, store, november)
	if info.Status != leaderboard.MonthClosed || info.Participants != 40 {
		t.Fatalf("closed month %+v", info)
	}
	if again := mustClose(t, store, november); again.Digest != info.Digest {
		t.Errorf("closing again changed the digest")
	}
	if want := digestOfPages(t, store, november); info.Digest != want {
		t.Errorf("digest %s, pages hash to %s", info.Digest, want)
	}
	if info.Settlement == nil || info.Settlement.Status != leaderboard.SettlementDisabled {
		t.Errorf("settlement without a webhook: %+v", info.Settlement)
	}
}

// main's months are due to close, as any board's periods, once the
// service's close grace (LEADERBOARD_CLOSE_GRACE) after their end passed.
func TestPeriodsToClose_MainsMonthDueAfterGraceAndResumes(t *testing.T) {
	store := mustOpenDB(t)
	submitTable(t, store, 3)
	openAt := func(now time.Time) *db.DB {
		s, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return now }), db.WithCloseGrace(15*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	end := november.End(time.UTC)
	for _, c := range []struct {
		now  time.Time
		auto bool
		want string
	}{
		{end.Add(14 * time.Minute), true, "[]"},
		{end.Add(15 * time.Minute), true, "[2026-11 OPEN]"},
		{end.Add(time.Hour), false, "[]"},
	} {
		due, err := openAt(c.now).PeriodsToClose(context.Background(), c.auto, 10)
		if got := fmt.Sprint(periodStates(due)); err != nil || got != c.want {
			t.Errorf("at end+%s auto %t: %s, %v; want %s", c.now.Sub(end), c.auto, got, err, c.want)
		}
	}
	if info, _ := openAt(end.Add(time.Hour)).Month(context.Background(), november); !info.ClosesAt.Equal(end.Add(15 * time.Minute)) {
		t.Errorf("closesAt %s, want end + 15m", info.ClosesAt)
	}
	// A close interrupted after it stopped the scores is due whatever the clock.
	if _, err := mustConn(t).Exec(context.Background(), `UPDATE periods SET status = 'CLOSING' WHERE board_id = 'main'`); err != nil {
		t.Fatal(err)
	}
	due, err := store.PeriodsToClose(context.Background(), false, 10)
	if got := fmt.Sprint(periodStates(due)); err != nil || got != "[2026-11 CLOSING]" {
		t.Errorf("a CLOSING month: %s, %v", got, err)
	}
}

func periodStates(periods []leaderboard.Period) []string {
	out := []string{}
	for _, p := range periods {
		out = append(out, p.Key+" "+string(p.Status))
	}
	return out
}

// The close records one month.closed message; a failed delivery keeps it
// PENDING with its error, and the next attempt sends the same message.
func TestSettlement_MessageDeliveredAtLeastOnce(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	submitTable(t, store, 120)
	info := mustClose(t, store, november)
	if info.Settlement == nil || info.Settlement.Status != leaderboard.SettlementPending {
		t.Fatalf("settlement after the close: %+v", info.Settlement)
	}
	var sent []leaderboard.Message
	fail := true
	send := func(_ context.Context, m leaderboard.Message) error {
		sent = append(sent, m)
		if fail {
			return errors.New("connection refused")
		}
		return nil
	}
	now := func(int) time.Duration { return 0 }
	for range 2 {
		if found, err := store.DeliverNext(context.Background(), send, now); err != nil || !found {
			t.Fatalf("deliver: found %t, %v", found, err)
		}
		info, _ = store.Month(context.Background(), november)
		if fail && (info.Settlement.Status != leaderboard.SettlementPending || info.Settlement.Attempts != 1 ||
			info.Settlement.LastError == nil || !strings.Contains(*info.Settlement.LastError, "refused")) {
			t.Fatalf("after a failed attempt: %+v", info.Settlement)
		}
		fail = false
	}
	if info.Settlement.Status != leaderboard.SettlementDelivered || info.Settlement.Attempts != 2 || info.Settlement.DeliveredAt == nil {
		t.Fatalf("after a delivery: %+v", info.Settlement)
	}
	if found, err := store.DeliverNext(context.Background(), send, now); err != nil || found {
		t.Fatalf("a delivered message was sent again: %t, %v", found, err)
	}
	if len(sent) != 2 || sent[0].ID != sent[1].ID || !bytes.Equal(sent[0].Body, sent[1].Body) {
		t.Fatalf("attempts differ: %+v", sent)
	}
	var body struct {
		ID, Type, Month, Digest string
		Participants            int
		Top                     []struct {
			Rank     int
			PlayerID string
			Name     *string
			Score    int
		}
	}
	if err := json.Unmarshal(sent[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.ID != sent[0].ID || body.Type != "month.closed" || body.Month != "2026-11" || body.Digest != info.Digest ||
		body.Participants != 120 || len(body.Top) != 100 {
		t.Errorf("message body: %s", sent[0].Body)
	}
	for i, e := range body.Top {
		if want := "Player " + strings.TrimPrefix(e.PlayerID, "p"); e.Rank != i+1 || e.Name == nil || *e.Name != want {
			t.Errorf("top entry %d: %+v, want rank %d named %q", i, e, i+1, want)
		}
	}
}

func TestExportStandings_StreamsTheFinalRanksInOrder(t *testing.T) {
	store := mustOpenDB(t)
	submitTable(t, store, 30)
	var out bytes.Buffer
	if err := store.ExportStandings(context.Background(), leaderboard.MainBoard, november.String(), leaderboard.MonthExport, &out); leaderboard.ErrorMessage(err) != "month 2026-11 is OPEN: its standings are not final yet" {
		t.Fatalf("export of an open month: %v", err)
	}
	if err := store.ExportStandings(context.Background(), leaderboard.MainBoard, november.Prev().String(), leaderboard.MonthExport, &out); leaderboard.ErrorMessage(err) != "month 2026-10 has no scores" {
		t.Fatalf("export of an unknown month: %v", err)
	}
	info := mustClose(t, store, november)
	if err := store.ExportStandings(context.Background(), leaderboard.MainBoard, november.String(), leaderboard.MonthExport, &out); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(records[0], ",") != db.ExportHeader || len(records) != 31 {
		t.Fatalf("header %v, %d lines", records[0], len(records))
	}
	h := sha256.New()
	for i, r := range records[1:] {
		fmt.Fprintf(h, "%s,%s,%s\n", r[0], r[1], r[3])
		if r[0] != fmt.Sprint(i+1) || !strings.HasPrefix(r[2], "Player ") {
			t.Errorf("line %d: %v", i+1, r)
		}
		if _, err := time.Parse(time.RFC3339Nano, r[4]); err != nil {
			t.Errorf("reached_at %q: %v", r[4], err)
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != info.Digest {
		t.Errorf("export hashes to %s, digest %s", got, info.Digest)
	}
	if first, last := records[1][5], records[30][5]; first != "100.0000" || last != "3.3333" {
		t.Errorf("percentiles %s .. %s", first, last)
	}
}

// dropMainMonths runs retention on store keeping retain of main's months
// before the current one, and names what it dropped "board/key".
func dropMainMonths(ctx context.Context, store *db.DB, retain int) ([]string, error) {
	dropped, err := store.DropOldPeriods(ctx, db.Retention{MainMonths: &retain})
	var names []string
	for _, p := range dropped {
		names = append(names, p.Board+"/"+p.Key)
	}
	return names, err
}

func TestDropOldMonths_DropsOnlyOldSettledMonths(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	submitTable(t, store, 4)
	later := func(months int) *db.DB {
		s, err := db.Open(context.Background(), pg.URL,
			db.WithClock(func() time.Time { return testNow.AddDate(0, months, 0) }), db.WithSettlement(true))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	// A reader that read the month live, and so prepared its statement on
	// the month's partition, before the close.
	reader := later(0)
	if s, err := mainStanding(context.Background(), reader, november, "p1", 10, 10); err != nil || s == nil {
		t.Fatalf("live standing before the close: %+v, %v", s, err)
	}
	mustCloseMain(t, store, november)
	// The closing instance remembers the month, and its table of final ranks.
	if s, err := mainStanding(context.Background(), store, november, "p1", 10, 10); err != nil || s == nil || !s.Final {
		t.Fatalf("final standing after the close: %+v, %v", s, err)
	}
	// Retaining one month before the current: November goes in January.
	if dropped, err := dropMainMonths(context.Background(), later(1), 1); err != nil || len(dropped) != 0 {
		t.Fatalf("in December: dropped %v, %v", dropped, err)
	}
	if dropped, err := dropMainMonths(context.Background(), later(2), 1); err != nil || len(dropped) != 0 {
		t.Fatalf("with its settlement pending: dropped %v, %v", dropped, err)
	}
	deliver := func(context.Context, leaderboard.Message) error { return nil }
	if _, err := store.DeliverNext(context.Background(), deliver, func(int) time.Duration { return 0 }); err != nil {
		t.Fatal(err)
	}
	if dropped, err := dropMainMonths(context.Background(), later(2), 1); err != nil || fmt.Sprint(dropped) != "[main/2026-11]" {
		t.Fatalf("in January, settled: dropped %v, %v", dropped, err)
	}
	if info, err := store.Month(context.Background(), november); err != nil || info != nil {
		t.Fatalf("a dropped month reads as %+v, %v", info, err)
	}
	var tables int
	err := mustConn(t).QueryRow(context.Background(),
		`SELECT (SELECT count(*) FROM period_purges) + (SELECT count(*) FROM periods WHERE board_id = 'main' AND key = '2026-11')`).Scan(&tables)
	if err != nil || tables != 0 {
		t.Fatalf("%d rows of the month left queued or in periods, %v", tables, err)
	}
	for _, instance := range []*db.DB{reader, store} {
		if s, err := mainStanding(context.Background(), instance, november, "p1", 10, 10); err != nil || s != nil {
			t.Fatalf("a dropped month's standing reads as %+v, %v", s, err)
		}
	}
}

// mustConn returns a connection of its own to the test database.
func mustConn(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// Past closesAt a month takes no more events, even before its close ran,
// and a month that never opened is not opened by them.
func TestSubmitScores_RefusesEventsAfterClosesAt(t *testing.T) {
	mustOpenDB(t)
	october := november.Prev()
	inOctober := october.Start(time.UTC).Add(time.Hour)
	for _, c := range []struct {
		grace time.Duration
		want  leaderboard.ScoreStatus
	}{{0, leaderboard.StatusRejected}, {19*24*time.Hour + 12*time.Hour, leaderboard.StatusRejected}, {20 * 24 * time.Hour, leaderboard.StatusApplied}} {
		store, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return testNow }), db.WithCloseGrace(c.grace))
		if err != nil {
			t.Fatal(err)
		}
		r := mustSubmit(t, store, event(fmt.Sprint("oct-", c.grace), "a", leaderboard.ModeSet, 5, &inOctober))[0]
		store.Close()
		if r.Status != c.want || (c.want == leaderboard.StatusRejected && (r.Err.Code != leaderboard.EMONTHCLOSED || !strings.Contains(r.Err.Message, "took events until"))) {
			t.Errorf("grace %s: %+v", c.grace, r)
		}
		if c.want == leaderboard.StatusRejected {
			if info, _ := mustOpenStore(t).Month(context.Background(), october); info != nil {
				t.Errorf("grace %s: a refused event opened the month: %+v", c.grace, info)
			}
		}
	}
}

// mustOpenStore opens the test database as it is, with the tests' clock.
func mustOpenStore(t *testing.T) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), pg.URL, db.WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return store
}

// A pool too small for a close to read names beside its own transaction is
// refused when it opens, not found stuck at the month's end.
func TestOpen_RefusesAPoolTooSmallForAClose(t *testing.T) {
	for _, open := range []func() (*db.DB, error){
		func() (*db.DB, error) { return db.Open(context.Background(), pg.URL+"&pool_max_conns=1") },
		func() (*db.DB, error) {
			return db.Open(context.Background(), pg.URL, db.WithLimits(db.Limits{MaxConns: 1}))
		},
	} {
		store, err := open()
		if err == nil {
			store.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "at least 2") {
			t.Errorf("a pool of one connection: %v", err)
		}
	}
	store, err := db.Open(context.Background(), pg.URL, db.WithLimits(db.Limits{MaxConns: 2}))
	if err != nil {
		t.Fatalf("a pool of two: %v", err)
	}
	store.Close()
}

// The final ranks a close writes hold every player of the month once, in
// the order a plain sort of the month's scores gives.
func TestCloseMonth_FinalRanksFollowAPlainSort(t *testing.T) {
	store := mustOpenDB(t)
	const players = 3_001
	if _, err := store.SeedPeriod(context.Background(), leaderboard.MainBoard, november.String(), players, db.SeedOptions{RandomSeed: 7}); err != nil {
		t.Fatal(err)
	}
	type row struct {
		player    string
		score     int
		reachedAt time.Time
		seq       int64
	}
	rows, err := mustConn(t).Query(context.Background(),
		`SELECT s.player_id, s.score, s.reached_at, s.seq FROM board_scores s JOIN periods p ON p.id = s.period_id
		WHERE p.board_id = 'main' AND p.key = $1`, november.String())
	if err != nil {
		t.Fatal(err)
	}
	var sorted []row
	var r row
	if _, err := pgx.ForEachRow(rows, []any{&r.player, &r.score, &r.reachedAt, &r.seq}, func() error {
		sorted = append(sorted, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(sorted, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.score, a.score), a.reachedAt.Compare(b.reachedAt), cmp.Compare(a.seq, b.seq))
	})
	info := mustClose(t, store, november)
	var out bytes.Buffer
	if err := store.ExportStandings(context.Background(), leaderboard.MainBoard, november.String(), leaderboard.MonthExport, &out); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if info.Participants != players || len(records) != players+1 || len(sorted) != players {
		t.Fatalf("%d participants, %d lines exported, %d scores", info.Participants, len(records), len(sorted))
	}
	for i, want := range sorted {
		if got := records[i+1]; got[0] != fmt.Sprint(i+1) || got[1] != want.player || got[3] != fmt.Sprint(want.score) {
			t.Fatalf("line %d: %v, a plain sort ranks %+v there", i+1, got, want)
		}
	}
}

// A correction that commits while retention drops its month: the drop saw
// no message to deliver, then waits for the correction's lock on the month,
// and must find its message then and keep the month (issue 37: the periods'
// retention re-checked under its lock, the months' did not).
func TestDropOldMonths_ACorrectionCommittedMeanwhileKeepsItsMessage(t *testing.T) {
	ctx := context.Background()
	store := mustOpenDB(t, db.WithSettlement(true))
	submitTable(t, store, 4)
	mustCloseMain(t, store, november)
	deliver := func(context.Context, leaderboard.Message) error { return nil }
	if _, err := store.DeliverNext(ctx, deliver, func(int) time.Duration { return 0 }); err != nil {
		t.Fatal(err)
	}
	january, err := db.Open(ctx, pg.URL, db.WithClock(func() time.Time { return testNow.AddDate(0, 2, 0) }), db.WithSettlement(true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(january.Close)

	// The correction in flight: the month's row locked, its message recorded.
	correction := mustConn(t)
	tx, err := correction.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM periods WHERE board_id = 'main' AND key = to_char($1::date, 'YYYY-MM') FOR UPDATE`, november.Date()); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO outbox (id, type, board_id, period_id, body)
		SELECT 'evt_race', 'month.corrected', 'main', id, '{}' FROM periods WHERE board_id = 'main' AND key = $1`,
		november.String()); err != nil {
		t.Fatal(err)
	}
	type result struct {
		dropped []string
		err     error
	}
	done := make(chan result, 1)
	go func() {
		dropped, err := dropMainMonths(ctx, january, 1)
		done <- result{dropped, err}
	}()
	// The drop waits for the month's row.
	watcher := mustConn(t)
	for waiting := 0; waiting == 0; {
		if err := watcher.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE NOT granted`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-done:
			t.Fatalf("the drop ended before the correction committed: %v, %v", r.dropped, r.err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || len(r.dropped) != 0 {
		t.Fatalf("dropped %v, %v; want none while the correction's message waits", r.dropped, r.err)
	}
	var messages int
	if err := watcher.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE id = 'evt_race' AND delivered_at IS NULL`).Scan(&messages); err != nil || messages != 1 {
		t.Fatalf("the correction's message: %d rows, %v; want it kept, to be delivered", messages, err)
	}
	if info, err := store.Month(ctx, november); err != nil || info == nil {
		t.Fatalf("the month after the drop: %+v, %v; want it kept", info, err)
	}
}
