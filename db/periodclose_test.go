package db_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// digestOf is the digest of lines "rank,playerId,score", ranks from 1.
func digestOf(players []string, scores []int) string {
	h := sha256.New()
	for i := range players {
		fmt.Fprintf(h, "%d,%s,%d\n", i+1, players[i], scores[i])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// mustQuery runs q on the test database and returns its rows as text.
func mustQuery(t testing.TB, q string, args ...any) [][]string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		values, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(values))
		for i, v := range values {
			row[i] = fmt.Sprint(v)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// exportRows returns the records of period key of board's export, its
// header checked.
func exportRows(t *testing.T, store *db.DB, board, key string) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := store.ExportStandings(context.Background(), board, key, leaderboard.PeriodExport, &buf); err != nil {
		t.Fatalf("export %s of %s: %v", key, board, err)
	}
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(records[0], ","); got != db.PeriodExportHeader {
		t.Fatalf("header %q, want %q", got, db.PeriodExportHeader)
	}
	return records[1:]
}

func assertCode(t *testing.T, err error, code string) {
	t.Helper()
	if leaderboard.ErrorCode(err) != code {
		t.Fatalf("got %v (%s), want %s", err, leaderboard.ErrorCode(err), code)
	}
}

func TestClosePeriod_RanksAsAPlainSort(t *testing.T) {
	for _, c := range []struct {
		order leaderboard.SortOrder
		tie   leaderboard.TieBreak
	}{
		{leaderboard.OrderDesc, leaderboard.TieBreakSubscoreDesc},
		{leaderboard.OrderAsc, leaderboard.TieBreakSubscoreAsc},
		{leaderboard.OrderAsc, leaderboard.TieBreakSubscoreDesc},
		{leaderboard.OrderDesc, leaderboard.TieBreakNone},
	} {
		t.Run(string(c.order)+"_"+string(c.tie), func(t *testing.T) {
			now := *utc(11, 19, 1)
			store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
			ctx := context.Background()
			b := mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay,
				Order: &c.order, TieBreak: &c.tie, TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
			type row struct {
				player   string
				score    int
				subscore *int
				arrival  int
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(c.tie))))
			var rows []row
			for i := range 60 {
				r := row{player: fmt.Sprintf("p%02d", i), score: rng.IntN(4) * 10, arrival: i}
				if rng.IntN(4) > 0 {
					r.subscore = new(rng.IntN(3))
				}
				occurred := utc(11, 19, 0).Add(time.Duration(i) * time.Second)
				e := boardEvent("laps", "e"+r.player, r.player, leaderboard.ModeSet, r.score, &occurred)
				e.Subscore = r.subscore
				// One call each: arrival and reach agree, so the oracle's
				// last tie-break is the arrival.
				assertOutcomes(t, mustSubmit(t, store, e), outcome{leaderboard.StatusApplied, r.score, ""})
				rows = append(rows, r)
			}
			slices.SortStableFunc(rows, func(x, y row) int {
				px, sx := b.SortKey(x.score, x.subscore)
				py, sy := b.SortKey(y.score, y.subscore)
				return cmp.Or(cmp.Compare(px, py), cmp.Compare(sx, sy), cmp.Compare(x.arrival, y.arrival))
			})
			var (
				players []string
				scores  []int
			)
			for _, r := range rows {
				players, scores = append(players, r.player), append(scores, r.score)
			}

			now = utc(11, 20, 0).Add(time.Minute) // past its closesAt
			p, err := store.ClosePeriod(ctx, "laps", "2026-11-19")
			if err != nil {
				t.Fatal(err)
			}
			if p.Status != leaderboard.PeriodClosed || p.Participants != 60 || p.ClosedAt == nil || !p.ClosedAt.Equal(now) {
				t.Fatalf("closed period %+v", p)
			}
			if want := digestOf(players, scores); p.Digest != want {
				t.Fatalf("digest %s, want the plain sort's %s", p.Digest, want)
			}
			for i, rec := range exportRows(t, store, "laps", "2026-11-19") {
				r := rows[i]
				sub := ""
				if r.subscore != nil {
					sub = strconv.Itoa(*r.subscore)
				}
				want := []string{strconv.Itoa(i + 1), r.player, strconv.Itoa(r.score), sub}
				if got := []string{rec[0], rec[1], rec[3], rec[6]}; !slices.Equal(got, want) {
					t.Fatalf("rank %d: got %v, want %v", i+1, got, want)
				}
			}
		})
	}
}

func TestClosePeriod_EarlyCloseRefusesLaterEventsAndRunsOnce(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0),
		Tiers: []leaderboard.Tier{{Name: "gold", TopPercent: 50}, {Name: "rest", TopPercent: 100}}})
	ann := boardEvent("daily", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9))
	ann.Metadata = json.RawMessage(`{"car":"red"}`)
	ann.PlayerName = new("Ann")
	mustSubmit(t, store, ann, boardEvent("daily", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 20, 10)))

	first, err := store.ClosePeriod(ctx, "daily", "2026-11-20")
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != leaderboard.PeriodClosed || first.Participants != 2 ||
		first.Settlement == nil || first.Settlement.Status != leaderboard.SettlementPending {
		t.Fatalf("closed early: %+v (settlement %+v)", first, first.Settlement)
	}
	results := mustSubmit(t, store, boardEvent("daily", "e3", "cid", leaderboard.ModeSet, 50, utc(11, 20, 11)),
		boardEvent("daily", "e4", "ann", leaderboard.ModeSet, 90, utc(11, 20, 11)))
	assertOutcomes(t, results, outcome{leaderboard.StatusRejected, -1, leaderboard.EMONTHCLOSED},
		outcome{leaderboard.StatusRejected, -1, leaderboard.EMONTHCLOSED})

	now = now.Add(time.Hour)
	again, err := store.ClosePeriod(ctx, "daily", "2026-11-20")
	if err != nil {
		t.Fatal(err)
	}
	if !again.ClosedAt.Equal(*first.ClosedAt) || again.Digest != first.Digest || again.Participants != 2 {
		t.Fatalf("second close changed the period: %+v, first %+v", again, first)
	}
	if got := digestOf([]string{"ann", "bob"}, []int{30, 20}); first.Digest != got {
		t.Fatalf("digest %s, want %s", first.Digest, got)
	}
	bodies := mustQuery(t, `SELECT o.type, o.body FROM outbox o JOIN periods p ON p.board_id = o.board_id AND p.id = o.period_id
		WHERE p.board_id = 'daily' AND p.key = '2026-11-20'`)
	if len(bodies) != 1 || bodies[0][0] != "period.closed" {
		t.Fatalf("messages %v, want one period.closed", bodies)
	}
	var msg struct {
		ID, Type, Board, Period, Digest string
		StartsAt, EndsAt, ClosedAt      time.Time
		Participants                    int
		Top                             []struct {
			Rank           int
			PlayerID, Name string
			Score          int
			Tier           *string
			Metadata       json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(bodies[0][1]), &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "period.closed" || msg.Board != "daily" || msg.Period != "2026-11-20" || msg.Digest != first.Digest ||
		msg.Participants != 2 || !msg.StartsAt.Equal(*utc(11, 20, 0)) || !msg.EndsAt.Equal(*utc(11, 21, 0)) ||
		!msg.ClosedAt.Equal(*first.ClosedAt) || !strings.HasPrefix(msg.ID, "evt_") || len(msg.Top) != 2 {
		t.Fatalf("message %s", bodies[0][1])
	}
	if top := msg.Top[0]; top.PlayerID != "ann" || top.Name != "Ann" || top.Rank != 1 || top.Score != 30 ||
		top.Tier == nil || *top.Tier != "gold" || string(top.Metadata) != `{"car": "red"}` && string(top.Metadata) != `{"car":"red"}` {
		t.Fatalf("top entry %+v", top)
	}
	if top := msg.Top[1]; top.Tier == nil || *top.Tier != "rest" || string(top.Metadata) != "null" {
		t.Fatalf("second entry %+v (metadata %s)", top, top.Metadata)
	}

	// A running period no event opened closes with nobody in it; an over
	// one without a row (no events, or dropped by retention) is not made
	// again to be closed a second time.
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "quiet", Name: "Quiet", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	empty, err := store.ClosePeriod(ctx, "quiet", "2026-11-20")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.ClosePeriod(ctx, "daily", "2026-11-18"); leaderboard.ErrorCode(err) != leaderboard.ENOTFOUND {
		t.Fatalf("closing an over period without a row: %v, want NOT_FOUND", err)
	}
	if empty.Status != leaderboard.PeriodClosed || empty.Participants != 0 ||
		empty.Digest != hex.EncodeToString(sha256.New().Sum(nil)) {
		t.Fatalf("empty period closed as %+v", empty)
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := store.ClosePeriod(ctx, "nope", "2026-11-20")
		assertCode(t, err, leaderboard.ENOTFOUND)
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		_, err := store.ClosePeriod(ctx, "daily", "2026-11")
		assertCode(t, err, leaderboard.EBADINPUT)
	})
	t.Run("ErrMainMonthNeverOpened", func(t *testing.T) {
		// closeMonth's answer for a month without scores.
		_, err := store.ClosePeriod(ctx, leaderboard.MainBoard, "2026-11")
		assertCode(t, err, leaderboard.ENOTFOUND)
	})
	t.Run("ErrNotStarted", func(t *testing.T) {
		_, err := store.ClosePeriod(ctx, "daily", "2026-11-25")
		assertCode(t, err, leaderboard.ECONFLICT)
	})
}

func TestClosePeriod_MonthBoardSendsMonthClosedWithBoardAndPeriod(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "monthly", Name: "Monthly", Reset: leaderboard.ResetMonth,
		TimeZone: new("UTC"), StartsAt: utc(10, 1, 0)})
	mustSubmit(t, store, boardEvent("monthly", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9)))
	if _, err := store.ClosePeriod(ctx, "monthly", "2026-11"); err != nil {
		t.Fatal(err)
	}
	bodies := mustQuery(t, `SELECT type, body FROM outbox WHERE board_id = 'monthly'`)
	want := `"type":"month.closed","month":"2026-11","board":"monthly","period":"2026-11","closedAt"`
	if len(bodies) != 1 || bodies[0][0] != "month.closed" || !strings.Contains(bodies[0][1], want) ||
		!strings.Contains(bodies[0][1], `"top":[{"rank":1,"playerId":"ann","name":null,"score":30}]`) {
		t.Fatalf("messages %v", bodies)
	}

	// Delivery sends it with its board and period, and the period shows it
	// delivered.
	var sent leaderboard.Message
	found, err := store.DeliverNext(ctx, func(_ context.Context, m leaderboard.Message) error { sent = m; return nil },
		func(int) time.Duration { return time.Second })
	if err != nil || !found {
		t.Fatalf("deliver: %v, %t", err, found)
	}
	if sent.Board != "monthly" || sent.Period != "2026-11" || sent.Type != "month.closed" ||
		string(sent.Body) != bodies[0][1] {
		t.Fatalf("sent %+v", sent)
	}
	p, err := store.Period(ctx, "monthly", "2026-11")
	if err != nil {
		t.Fatal(err)
	}
	if p.Settlement == nil || p.Settlement.Status != leaderboard.SettlementDelivered || p.Settlement.Attempts != 1 {
		t.Fatalf("settlement %+v", p.Settlement)
	}
	periods, err := store.Periods(ctx, mustBoard(t, store, "monthly"), 5)
	if err != nil || len(periods) != 1 || periods[0].Settlement.Status != leaderboard.SettlementDelivered {
		t.Fatalf("periods %+v, %v", periods, err)
	}
}

func TestClosePeriod_TwoInstancesRacingCloseEachPeriodOnce(t *testing.T) {
	now := *utc(11, 19, 12)
	clock := db.WithClock(func() time.Time { return now })
	store := mustOpenDB(t, clock, db.WithSettlement(true))
	other, err := db.Open(context.Background(), pg.URL, clock, db.WithSettlement(true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	ctx := context.Background()
	const boards = 50
	var events []leaderboard.ScoreEvent
	for i := range boards {
		id := fmt.Sprintf("b%02d", i)
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(0), StartsAt: utc(11, 1, 0)})
		for j := range 4 {
			events = append(events, boardEvent(id, fmt.Sprint("e", j), fmt.Sprint("p", j), leaderboard.ModeSet, 10*j+i, utc(11, 19, j)))
		}
	}
	mustSubmit(t, store, events...)
	now = *utc(11, 20, 0)
	var wg sync.WaitGroup
	for _, s := range []*db.DB{store, other} {
		for i := range boards {
			wg.Go(func() {
				id := fmt.Sprintf("b%02d", i)
				p, err := s.ClosePeriod(ctx, id, "2026-11-19")
				if err != nil {
					t.Errorf("close %s: %v", id, err)
					return
				}
				want := digestOf([]string{"p3", "p2", "p1", "p0"}, []int{30 + i, 20 + i, 10 + i, i})
				if p.Status != leaderboard.PeriodClosed || p.Digest != want || p.Participants != 4 {
					t.Errorf("closed %s as %+v", id, p)
				}
			})
		}
	}
	wg.Wait()
	counts := mustQuery(t, `SELECT count(*), count(DISTINCT period_id) FROM outbox WHERE period_id IS NOT NULL`)
	ranks := mustQuery(t, `SELECT count(*) FROM board_final_ranks`)
	if counts[0][0] != "50" || counts[0][1] != "50" || ranks[0][0] != "200" {
		t.Fatalf("messages (all, periods) %v and final ranks %v: want 50 messages of 50 periods and 200 ranks", counts, ranks)
	}
	// Beside the partition of the large periods' own (migration 27).
	partitions := mustQuery(t, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'board_final_ranks'::regclass AND c.relname <> 'board_final_ranks_own'`)
	if len(partitions) != 1 || partitions[0][0] != "board_final_ranks_2026_11" {
		t.Fatalf("partitions %v, want one of November", partitions)
	}
}

func TestPeriodsToClose_FindsDuePeriodsOfOtherBoards(t *testing.T) {
	now := *utc(11, 19, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "day", Name: "Day", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(600), StartsAt: utc(11, 1, 0)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "ever", Name: "Ever", Reset: leaderboard.ResetNone,
		TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "ends", Name: "Ends", Reset: leaderboard.ResetNone,
		TimeZone: new("UTC"), CloseGrace: new(0), StartsAt: utc(11, 1, 0), EndsAt: utc(11, 20, 0)})
	mustSubmit(t, store, boardEvent("day", "e1", "ann", leaderboard.ModeSet, 1, utc(11, 19, 1)),
		boardEvent("ever", "e1", "ann", leaderboard.ModeSet, 1, utc(11, 19, 1)),
		boardEvent("ends", "e1", "ann", leaderboard.ModeSet, 1, utc(11, 19, 1)),
		event("m1", "ann", leaderboard.ModeSet, 1, utc(11, 19, 1)))
	keys := func(auto bool) string {
		due, err := store.PeriodsToClose(ctx, auto, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range due {
			out = append(out, p.Board+"/"+p.Key+"/"+string(p.Status))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		now  time.Time
		auto bool
		want string
	}{
		{*utc(11, 19, 23), true, ""},
		{utc(11, 20, 0).Add(9 * time.Minute), true, "ends/all/OPEN"},
		{utc(11, 20, 0).Add(10 * time.Minute), true, "day/2026-11-19/OPEN ends/all/OPEN"},
		{utc(11, 20, 0).Add(10 * time.Minute), false, ""},
	} {
		now = c.now
		if got := keys(c.auto); got != c.want {
			t.Errorf("at %s (auto %t): due %q, want %q", c.now.Format(time.RFC3339), c.auto, got, c.want)
		}
	}
	if _, err := store.ClosePeriod(ctx, "day", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	if got := keys(true); got != "ends/all/OPEN" {
		t.Errorf("due after a close %q", got)
	}
}

func TestClearPeriod_EmptiesAnOpenPeriodAsACorrection(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store, boardEvent("daily", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9)),
		boardEvent("daily", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 20, 10)))

	t.Run("ErrBadReason", func(t *testing.T) {
		_, err := store.ClearPeriod(ctx, "daily", "2026-11-20", "  ")
		assertCode(t, err, leaderboard.EBADINPUT)
	})
	p, err := store.ClearPeriod(ctx, "daily", "2026-11-20", "test phase over")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != leaderboard.PeriodOpen || p.Participants != 0 {
		t.Fatalf("cleared period %+v", p)
	}
	if rows := mustQuery(t, `SELECT count(*) FROM board_scores`); rows[0][0] != "0" {
		t.Fatalf("%s rows left", rows[0][0])
	}
	got := mustQuery(t, `SELECT c.board_id, p.key, COALESCE(c.player_id, '-'), c.reason
		FROM corrections c JOIN periods p ON p.board_id = c.board_id AND p.id = c.period_id`)
	if fmt.Sprint(got) != "[[daily 2026-11-20 - test phase over]]" {
		t.Fatalf("corrections %v", got)
	}
	// A retry of an event taken before is still a duplicate; a new one counts.
	results := mustSubmit(t, store, boardEvent("daily", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9)),
		boardEvent("daily", "e3", "cid", leaderboard.ModeSet, 5, utc(11, 20, 11)))
	if results[0].Status != leaderboard.StatusDuplicate || results[1].Status != leaderboard.StatusApplied {
		t.Fatalf("after the clear: %+v", results)
	}
	closed, err := store.ClosePeriod(ctx, "daily", "2026-11-20")
	if err != nil || closed.Participants != 1 {
		t.Fatalf("close after the clear: %+v, %v", closed, err)
	}

	t.Run("ErrClosed", func(t *testing.T) {
		_, err := store.ClearPeriod(ctx, "daily", "2026-11-20", "again")
		assertCode(t, err, leaderboard.ECONFLICT)
	})
	t.Run("ErrPastItsClose", func(t *testing.T) {
		_, err := store.ClearPeriod(ctx, "daily", "2026-11-19", "too late")
		assertCode(t, err, leaderboard.ECONFLICT)
	})
	t.Run("ErrMain", func(t *testing.T) {
		_, err := store.ClearPeriod(ctx, leaderboard.MainBoard, "2026-11", "no")
		assertCode(t, err, leaderboard.EBADINPUT)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := store.ClearPeriod(ctx, "nope", "2026-11-20", "no")
		assertCode(t, err, leaderboard.ENOTFOUND)
	})
}

func TestExportPeriod_WritesTiersAndDisarmsFormulas(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	// A board of durations: its export keeps the plain number of
	// milliseconds, as every answer does.
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0), TieBreak: new(leaderboard.TieBreakSubscoreDesc),
		ScoreFormat: new(leaderboard.ScoreDurationMS),
		Tiers:       []leaderboard.Tier{{Name: "=gold", TopPercent: 100.0 / 3}, {Name: "silver", TopPercent: 100}}})
	hostile := boardEvent("daily", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9))
	hostile.PlayerName, hostile.Subscore = new("=HYPERLINK(\"http://x\")"), new(7)
	mustSubmit(t, store, hostile, boardEvent("daily", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 20, 10)),
		boardEvent("daily", "e3", "cid", leaderboard.ModeSet, 10, utc(11, 20, 11)))

	var buf bytes.Buffer
	assertCode(t, store.ExportStandings(ctx, "daily", "2026-11-20", leaderboard.PeriodExport, &buf), leaderboard.ECONFLICT)
	assertCode(t, store.ExportStandings(ctx, "nope", "2026-11-20", leaderboard.PeriodExport, &buf), leaderboard.ENOTFOUND)
	assertCode(t, store.ExportStandings(ctx, "daily", "2026-11-17", leaderboard.PeriodExport, &buf), leaderboard.ENOTFOUND)
	assertCode(t, store.ExportStandings(ctx, "daily", "November", leaderboard.PeriodExport, &buf), leaderboard.EBADINPUT)
	assertCode(t, store.ExportStandings(ctx, "daily", "2026-11-20", leaderboard.MonthExport, &buf), leaderboard.EBADINPUT)
	if buf.Len() != 0 {
		t.Fatalf("a refused export wrote %q", buf.String())
	}
	if _, err := store.ClosePeriod(ctx, "daily", "2026-11-20"); err != nil {
		t.Fatal(err)
	}
	got := exportRows(t, store, "daily", "2026-11-20")
	want := [][]string{
		// 100 * 1 / 3 is exactly the first tier's topPercent in floating
		// point, as Board.TierOf computes it.
		{"1", "ann", `'=HYPERLINK("http://x")`, "30", "2026-11-20T09:00:00.000000Z", "100.0000", "7", "'=gold", ""},
		{"2", "bob", "", "20", "2026-11-20T10:00:00.000000Z", "66.6667", "", "silver", ""},
		{"3", "cid", "", "10", "2026-11-20T11:00:00.000000Z", "33.3333", "", "silver", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("export\n got  %q\n want %q", got, want)
	}
}

func TestExportPeriod_MainIsItsMonthWithEmptyBoardColumns(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	mustSubmit(t, store, event("e1", "ann", leaderboard.ModeSet, 30, at(5)))
	var buf bytes.Buffer
	assertCode(t, store.ExportStandings(ctx, leaderboard.MainBoard, "2026-11", leaderboard.PeriodExport, &buf), leaderboard.ECONFLICT)
	if _, err := closeMonth(store, november); err != nil {
		t.Fatal(err)
	}
	got := exportRows(t, store, leaderboard.MainBoard, "2026-11")
	if fmt.Sprint(got) != "[[1 ann  30 2026-11-01T00:05:00.000000Z 100.0000   ]]" {
		t.Fatalf("export %q", got)
	}
}

func TestClosePeriod_OutsideTheLifeNamesTheZoneAndCurrentKey(t *testing.T) {
	store := mustOpenDB(t)
	// A Tokyo day board started at Tokyo's midnight of 2026-11-20, which is
	// 2026-11-19 15:00 UTC: the UTC date of its start names no period of it.
	start := time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "tokyo.daily", Name: "Tokyo daily",
		Reset: leaderboard.ResetDay, TimeZone: new("Asia/Tokyo"), StartsAt: &start})
	_, err := store.ClosePeriod(context.Background(), "tokyo.daily", "2026-11-19")
	assertCode(t, err, leaderboard.ENOTFOUND)
	msg := leaderboard.ErrorMessage(err)
	for _, want := range []string{"outside the board's life", "Asia/Tokyo", "current period is 2026-11-20", "2026-11-20 21:00 JST"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
}
