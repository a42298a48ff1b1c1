package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// standingOf reads player's standing in period key of board without
// neighbours; nil when the player has no row.
func standingOf(t *testing.T, store *db.DB, board, key, player string) *leaderboard.Standing {
	t.Helper()
	s, err := store.PeriodStanding(context.Background(), mustBoard(t, store, board), key, player, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCorrectPeriodScore_OpenPeriodMovesTheLiveRankAndBarsARemovedPlayer(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	asc, tie := leaderboard.OrderAsc, leaderboard.TieBreakSubscoreDesc
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "laps", Name: "Laps", Reset: leaderboard.ResetDay,
		Order: &asc, TieBreak: &tie, MinScore: new(1), MaxScore: new(600000), TimeZone: new("UTC"),
		CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	for i, p := range []struct {
		player          string
		score, subscore int
	}{{"ann", 300, 1}, {"bob", 200, 2}, {"cid", 100, 3}} {
		e := boardEvent("laps", "e-"+p.player, p.player, leaderboard.ModeSet, p.score, utc(11, 20, 9+i))
		e.Subscore = new(p.subscore)
		e.Metadata = json.RawMessage(`{"car":"` + p.player + `"}`)
		mustSubmit(t, store, e)
	}

	// bob's lap corrected to the best: first in the ASC order, his subscore
	// and metadata kept, reached at the correction.
	now = testNow.Add(time.Minute)
	c, err := store.CorrectScore(ctx, "laps", "2026-11-20", "bob", new(50), "timing glitch")
	if err != nil {
		t.Fatal(err)
	}
	if c.Board != "laps" || c.Period != "2026-11-20" || c.Month != november || c.PlayerID != "bob" ||
		*c.Before != 200 || *c.After != 50 || c.Reason != "timing glitch" || !c.At.Equal(now) || c.Cleared {
		t.Fatalf("correction %+v", c)
	}
	s := standingOf(t, store, "laps", "2026-11-20", "bob")
	if s.Rank != 1 || s.Score != 50 || *s.Subscore != 2 || string(s.Metadata) != `{"car": "bob"}` || !s.ReachedAt.Equal(now) {
		t.Fatalf("bob after the correction: %+v", s)
	}

	// ann removed: gone from the table, and her later events refused.
	if _, err := store.CorrectScore(ctx, "laps", "2026-11-20", "ann", nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	if s := standingOf(t, store, "laps", "2026-11-20", "ann"); s != nil {
		t.Fatalf("ann still stands: %+v", s)
	}
	retry := boardEvent("laps", "e-ann", "ann", leaderboard.ModeSet, 300, utc(11, 20, 9))
	retry.Subscore = new(1)
	results := mustSubmit(t, store, boardEvent("laps", "e-ann-2", "ann", leaderboard.ModeSet, 90, utc(11, 20, 11)), retry)
	if results[0].Status != leaderboard.StatusRejected || results[0].Err.Code != leaderboard.EFORBIDDEN ||
		results[1].Status != leaderboard.StatusDuplicate {
		t.Fatalf("ann's events after her removal: %+v", results)
	}
	// Her events on another board still count, also in a call that holds
	// her refused ones and others' events of her period.
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "other", Name: "Other", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	r := mustSubmit(t, store, boardEvent("other", "e-ann-3", "ann", leaderboard.ModeSet, 90, utc(11, 20, 11)),
		boardEvent("laps", "e-ann-5", "ann", leaderboard.ModeSet, 80, utc(11, 20, 11)),
		boardEvent("laps", "e-cid-2", "cid", leaderboard.ModeSet, 70, utc(11, 20, 11)))
	if r[0].Status != leaderboard.StatusApplied || r[1].Status != leaderboard.StatusRejected ||
		r[1].Err.Code != leaderboard.EFORBIDDEN || r[2].Status != leaderboard.StatusApplied {
		t.Fatalf("ann's event on another board beside her refused one: %+v", r)
	}

	// A score given back lets her events count again.
	if _, err := store.CorrectScore(ctx, "laps", "2026-11-20", "ann", new(400), "appeal upheld"); err != nil {
		t.Fatal(err)
	}
	results = mustSubmit(t, store, boardEvent("laps", "e-ann-4", "ann", leaderboard.ModeBest, 150, utc(11, 20, 11)))
	if results[0].Status != leaderboard.StatusApplied || *results[0].Score != 150 {
		t.Fatalf("ann's event after her score came back: %+v", results)
	}

	if _, err := store.ClearPeriod(ctx, "laps", "2026-11-20", "reset"); err != nil {
		t.Fatal(err)
	}
	list, err := store.Corrections(ctx, "laps", "2026-11-20")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range list {
		got = append(got, fmt.Sprintf("%s %s %v>%v %s %t", c.Period, c.PlayerID, show(c.Before), show(c.After), c.Reason, c.Cleared))
	}
	want := []string{"2026-11-20 bob 200>50 timing glitch false", "2026-11-20 ann 300>- cheating false",
		"2026-11-20 ann ->400 appeal upheld false", "2026-11-20  ->- reset true"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("corrections\n%q\nwant\n%q", got, want)
	}
	if list, err := store.Corrections(ctx, "laps", "2026-11-19"); err != nil || len(list) != 0 {
		t.Fatalf("corrections of another day: %v, %v", list, err)
	}
	// Main's months list none of them.
	if list, err := store.Corrections(ctx, leaderboard.MainBoard, november.String()); err != nil || len(list) != 0 {
		t.Fatalf("main's corrections: %v, %v", list, err)
	}
}

// show is a total that may be missing, "-" for none.
func show(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

func TestCorrectPeriodScore_RefusesBadInput(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		MinScore: new(10), MaxScore: new(100), TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	mustSubmit(t, store, boardEvent("daily", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9)))
	for _, c := range []struct {
		name, board, key, player string
		score                    *int
		reason, code             string
	}{
		{"BelowTheBoardsMin", "daily", "2026-11-20", "ann", new(9), "r", leaderboard.EBADINPUT},
		{"AboveTheBoardsMax", "daily", "2026-11-20", "ann", new(101), "r", leaderboard.EBADINPUT},
		{"BlankReason", "daily", "2026-11-20", "ann", new(50), " ", leaderboard.EBADINPUT},
		{"KeyNotTheBoards", "daily", "2026-11", "ann", new(50), "r", leaderboard.EBADINPUT},
		{"MainKeyNotAMonth", leaderboard.MainBoard, "2026-W47", "ann", new(50), "r", leaderboard.EBADINPUT},
		{"MainMonthNeverOpened", leaderboard.MainBoard, "2026-11", "ann", new(50), "r", leaderboard.ENOTFOUND},
		{"UnknownBoard", "nope", "2026-11-20", "ann", new(50), "r", leaderboard.ENOTFOUND},
		{"PeriodNeverOpened", "daily", "2026-11-18", "ann", new(50), "r", leaderboard.ENOTFOUND},
		{"RemoveAPlayerWithoutScore", "daily", "2026-11-20", "bob", nil, "r", leaderboard.ENOTFOUND},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := store.CorrectScore(ctx, c.board, c.key, c.player, c.score, c.reason)
			assertCode(t, err, c.code)
		})
	}
	t.Run("Closing", func(t *testing.T) {
		mustQuery(t, `UPDATE periods SET status = 'CLOSING' WHERE board_id = 'daily'`)
		defer mustQuery(t, `UPDATE periods SET status = 'OPEN' WHERE board_id = 'daily'`)
		_, err := store.CorrectScore(ctx, "daily", "2026-11-20", "ann", new(50), "r")
		assertCode(t, err, leaderboard.ECONFLICT)
	})
	if rows := mustQuery(t, `SELECT count(*) FROM corrections`); rows[0][0] != "0" {
		t.Fatalf("refused corrections recorded %s rows", rows[0][0])
	}
	if s := standingOf(t, store, "daily", "2026-11-20", "ann"); s.Score != 30 {
		t.Fatalf("ann's score moved: %+v", s)
	}
	t.Run("ListOfMainKeyNotAMonth", func(t *testing.T) {
		_, err := store.Corrections(ctx, leaderboard.MainBoard, "2026-W47")
		assertCode(t, err, leaderboard.EBADINPUT)
	})
	t.Run("ListOfUnknownBoard", func(t *testing.T) {
		_, err := store.Corrections(ctx, "nope", "2026-11-20")
		assertCode(t, err, leaderboard.ENOTFOUND)
	})
}

func TestCorrectPeriodScore_ClosedPeriodRebuildsFinalRanks(t *testing.T) {
	for _, c := range []struct {
		reset     leaderboard.Reset
		key, typ  string
		boardKeys string // the keys the message names its board and period by
	}{
		{leaderboard.ResetDay, "2026-11-20", "period.corrected", `"board":"b","period":"2026-11-20","startsAt"`},
		{leaderboard.ResetMonth, "2026-11", "month.corrected", `"month":"2026-11","board":"b","period":"2026-11"`},
	} {
		t.Run(string(c.reset), func(t *testing.T) {
			now := testNow
			store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
			ctx := context.Background()
			mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "b", Name: "B", Reset: c.reset, TimeZone: new("UTC"),
				CloseGrace: new(60), StartsAt: utc(10, 1, 0)})
			mustSubmit(t, store, boardEvent("b", "e1", "ann", leaderboard.ModeSet, 30, utc(11, 20, 9)),
				boardEvent("b", "e2", "bob", leaderboard.ModeSet, 20, utc(11, 20, 10)),
				boardEvent("b", "e3", "cid", leaderboard.ModeSet, 10, utc(11, 20, 11)))
			closed, err := store.ClosePeriod(ctx, "b", c.key)
			if err != nil {
				t.Fatal(err)
			}

			now = testNow.Add(time.Hour)
			corr, err := store.CorrectScore(ctx, "b", c.key, "cid", new(40), "missed match")
			if err != nil {
				t.Fatal(err)
			}
			p, err := store.Period(ctx, "b", c.key)
			if err != nil {
				t.Fatal(err)
			}
			want := digestOf([]string{"cid", "ann", "bob"}, []int{40, 30, 20})
			if p.Status != leaderboard.PeriodClosed || p.Participants != 3 || p.Digest != want || p.Digest == closed.Digest ||
				!p.ClosedAt.Equal(*closed.ClosedAt) {
				t.Fatalf("corrected period %+v, want digest %s", p, want)
			}
			if got := mustQuery(t, `SELECT ranks_version FROM periods WHERE board_id = 'b'`); got[0][0] != "2" {
				t.Fatalf("ranks_version %s", got[0][0])
			}
			var order []string
			for _, rec := range exportRows(t, store, "b", c.key) {
				order = append(order, rec[0]+":"+rec[1]+":"+rec[3])
			}
			if got := strings.Join(order, " "); got != "1:cid:40 2:ann:30 3:bob:20" {
				t.Fatalf("final ranks %s", got)
			}
			if s := standingOf(t, store, "b", c.key, "cid"); s.Rank != 1 || !s.Final {
				t.Fatalf("cid's standing %+v", s)
			}

			// A removal ranks the rest again.
			if _, err := store.CorrectScore(ctx, "b", c.key, "ann", nil, "cheating"); err != nil {
				t.Fatal(err)
			}
			p, err = store.Period(ctx, "b", c.key)
			if err != nil || p.Participants != 2 || p.Digest != digestOf([]string{"cid", "bob"}, []int{40, 20}) {
				t.Fatalf("after the removal %+v, %v", p, err)
			}
			if got := mustQuery(t, `SELECT rank, player_id FROM board_final_ranks ORDER BY rank`); fmt.Sprint(got) != "[[1 cid] [2 bob]]" {
				t.Fatalf("final ranks after the removal %v", got)
			}

			msgs := mustQuery(t, `SELECT type, body FROM outbox WHERE board_id = 'b' ORDER BY created_at`)
			if len(msgs) != 3 || msgs[1][0] != c.typ || msgs[2][0] != c.typ {
				t.Fatalf("messages %v", msgs)
			}
			var body struct {
				Type       string
				Digest     string
				Correction struct {
					ID, PlayerID, Reason string
					Before, After        *int
				}
			}
			if err := json.Unmarshal([]byte(msgs[1][1]), &body); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msgs[1][1], c.boardKeys) || body.Type != c.typ || body.Digest != want ||
				body.Correction.ID != corr.ID || body.Correction.PlayerID != "cid" || body.Correction.Reason != "missed match" ||
				*body.Correction.Before != 10 || *body.Correction.After != 40 {
				t.Fatalf("message %s", msgs[1][1])
			}
			if p.Settlement == nil || p.Settlement.Status != leaderboard.SettlementPending {
				t.Fatalf("settlement %+v", p.Settlement)
			}
		})
	}
}

func TestCorrectPeriodScore_ReadersSeeTheOldOrTheNewFinalRanks(t *testing.T) {
	now := *utc(11, 19, 12)
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
		TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	var events []leaderboard.ScoreEvent
	for i := range 200 {
		events = append(events, boardEvent("daily", fmt.Sprint("e", i), fmt.Sprint("p", i), leaderboard.ModeSet, i+1, utc(11, 19, 9)))
	}
	mustSubmit(t, store, events...)
	now = testNow
	if _, err := store.ClosePeriod(ctx, "daily", "2026-11-19"); err != nil {
		t.Fatal(err)
	}

	// Corrections remove and give back p0 over and over while readers count
	// the final ranks: each read sees 200 or 199 rows ranked 1..n, never a
	// mix or a gap.
	stop := make(chan struct{})
	var (
		wg    sync.WaitGroup
		bad   []string
		badMu sync.Mutex
	)
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				got := mustQuery(t, `SELECT count(*), COALESCE(max(rank), 0), count(DISTINCT player_id) FROM board_final_ranks`)
				if r := got[0]; r[0] != r[1] || r[0] != r[2] || (r[0] != "200" && r[0] != "199") {
					badMu.Lock()
					bad = append(bad, fmt.Sprint(r))
					badMu.Unlock()
				}
			}
		})
	}
	var err error
	for i := range 10 {
		score := new(500 + i)
		if i%2 == 0 {
			score = nil
		}
		if _, err = store.CorrectScore(ctx, "daily", "2026-11-19", "p0", score, "flip"); err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("reads saw %v", bad)
	}
}

// TestCorrectPeriodScore_RemovalShiftsTheRanksAsAFullReRankWrites removes a
// player from a closed period, whose rank alone goes (the ranks below move
// up), and compares the final ranks and the period.corrected message with
// those of a twin board without the player, ranked again in full by a
// correction that keeps a total.
func TestCorrectPeriodScore_RemovalShiftsTheRanksAsAFullReRankWrites(t *testing.T) {
	for _, own := range []bool{false, true} {
		t.Run(fmt.Sprintf("final ranks of their own %t", own), func(t *testing.T) {
			checkRemovalShiftsAsAFullReRank(t, own)
		})
	}
}

// checkRemovalShiftsAsAFullReRank checks that a removal from a closed
// period's final ranks writes what ranking it again writes, with the final
// ranks in their month's partition or, with own, in their own.
func checkRemovalShiftsAsAFullReRank(t *testing.T, own bool) {
	now := testNow
	store := mustOpenDB(t, append([]db.Option{db.WithClock(func() time.Time { return now }), db.WithSettlement(true)},
		ownPartitions(own)...)...)
	ctx := context.Background()
	const key = "2026-11-20"
	for _, board := range []string{"shifted", "full"} {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: board, Name: "B", Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(10, 1, 0)})
		var events []leaderboard.ScoreEvent
		for i := range 30 {
			player := fmt.Sprintf("p%02d", i)
			if i == 7 && board == "full" {
				continue // the player the other board removes
			}
			// Ties by score, told apart by who reached them first.
			events = append(events, boardEvent(board, "e"+player, player, leaderboard.ModeSet, (i*7)%10,
				utc(11, 20, 9+i%5)))
		}
		mustSubmit(t, store, events...)
		if _, err := store.ClosePeriod(ctx, board, key); err != nil {
			t.Fatal(err)
		}
	}
	now = testNow.Add(time.Hour)
	if _, err := store.CorrectScore(ctx, "shifted", key, "p07", nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CorrectScore(ctx, "full", key, "p08", new(6), "checked"); err != nil {
		t.Fatal(err)
	}
	ranks := func(board string) string {
		return fmt.Sprint(mustQuery(t, `SELECT f.rank, f.player_id, f.score, f.subscore, f.reached_at, f.metadata
			FROM board_final_ranks f JOIN periods p ON p.id = f.period_id WHERE p.board_id = $1 ORDER BY f.rank`, board))
	}
	if shifted, full := ranks("shifted"), ranks("full"); shifted != full || strings.Contains(shifted, "p07") || !strings.Contains(shifted, "p08") {
		t.Fatalf("final ranks\n%s\nwant\n%s", shifted, full)
	}
	body := func(board string) string {
		got := mustQuery(t, `SELECT body FROM outbox WHERE board_id = $1 AND type = 'period.corrected'`, board)
		if len(got) != 1 {
			t.Fatalf("%s's messages %v", board, got)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got[0][0]), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "id")
		delete(m, "board")
		delete(m, "correction")
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if shifted, full := body("shifted"), body("full"); shifted != full || !strings.Contains(shifted, `"playerId":"p08"`) {
		t.Fatalf("message\n%s\nwant\n%s", shifted, full)
	}
	if s := standingOf(t, store, "shifted", key, "p08"); s.Rank != standingOf(t, store, "full", key, "p08").Rank {
		t.Fatalf("p08's standing %+v", s)
	}
	if n := len(ownRelations(t)); own && n != 2 || !own && n != 0 {
		t.Fatalf("%d partitions of their own", n)
	}
}
