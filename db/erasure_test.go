package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// erased is the id and name of the player the erasure tests erase: spelled
// so that no other text holds them by chance.
const (
	erasedID   = "erase-me-7f3a"
	erasedName = "Zed Erasable"
)

var erasureKey = []byte("a test key for the erasures' hash")

// named is an event with the player's name and metadata that names them.
func named(e leaderboard.ScoreEvent, name string) leaderboard.ScoreEvent {
	e.PlayerName = &name
	if e.Board != "" {
		e.Metadata = json.RawMessage(`{"who":"` + e.PlayerID + `"}`)
	}
	return e
}

// rowsHolding returns, for every text and JSON column of every table of
// the database, the rows that hold any of needles, as "table.column: n".
func rowsHolding(t *testing.T, needles ...string) []string {
	t.Helper()
	cols := mustQuery(t, `SELECT c.table_name, c.column_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
			AND c.data_type IN ('text', 'jsonb', 'character varying')
		ORDER BY 1, 2`)
	var found []string
	for _, col := range cols {
		for _, n := range needles {
			q := fmt.Sprintf(`SELECT count(*) FROM %q WHERE strpos(%q::text, $1) > 0`, col[0], col[1])
			if got := mustQuery(t, q, n); got[0][0] != "0" {
				found = append(found, fmt.Sprintf("%s.%s holds %q: %s", col[0], col[1], n, got[0][0]))
			}
		}
	}
	return found
}

func TestErasePlayer_GoneFromEveryBoardAndPeriod(t *testing.T) {
	inEveryFinalRanksPlace(t, func(t *testing.T, own []db.Option) {
		now := *utc(10, 20, 12)
		store := mustOpenDB(t, append(own, db.WithClock(func() time.Time { return now }), db.WithSettlement(true),
			db.WithErasureKey(erasureKey))...)
		ctx := context.Background()
		october := mustMonth("2026-10")
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "daily", Name: "Daily", Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(10, 1, 0)})

		// October on main, closed: the erased player first, bob second.
		mustSubmit(t, store,
			named(event("m1", erasedID, leaderboard.ModeSet, 900, utc(10, 20, 9)), erasedName),
			named(event("m2", "bob", leaderboard.ModeSet, 800, utc(10, 20, 10)), "Bob"),
			named(event("m3", "cid", leaderboard.ModeSet, 700, utc(10, 20, 11)), "Cid"))
		// Two days of the daily board, closed; the erased player first on both.
		now = *utc(11, 18, 12)
		for d := 18; d <= 19; d++ {
			key := fmt.Sprintf("2026-11-%d", d)
			now = *utc(11, d, 12)
			mustSubmit(t, store,
				named(boardEvent("daily", "d1-"+key, erasedID, leaderboard.ModeSet, 90, utc(11, d, 9)), erasedName),
				named(boardEvent("daily", "d2-"+key, "bob", leaderboard.ModeSet, 80, utc(11, d, 10)), "Bob"),
				named(boardEvent("daily", "d3-"+key, "cid", leaderboard.ModeSet, 70, utc(11, d, 11)), "Cid"))
		}
		now = testNow
		mustClose(t, store, october)
		for _, key := range []string{"2026-11-18", "2026-11-19"} {
			if _, err := store.ClosePeriod(ctx, "daily", key); err != nil {
				t.Fatal(err)
			}
		}
		// Today, open on both boards; an admin's older correction names them.
		mustSubmit(t, store,
			named(event("m4", erasedID, leaderboard.ModeSet, 500, at(60)), erasedName),
			named(event("m5", "bob", leaderboard.ModeSet, 400, at(61)), "Bob"),
			named(boardEvent("daily", "d1-open", erasedID, leaderboard.ModeSet, 60, utc(11, 20, 9)), erasedName),
			named(boardEvent("daily", "d2-open", "bob", leaderboard.ModeSet, 50, utc(11, 20, 10)), "Bob"))
		if _, err := store.CorrectScore(ctx, "daily", "2026-11-19", erasedID, new(95), "late result of "+erasedID); err != nil {
			t.Fatal(err)
		}
		// Claims: the erased player's and bob's, whose rank the erasure moves.
		for _, p := range []string{erasedID, "bob"} {
			mustClaim(t, store, "daily", "2026-11-18", p, "grant-"+p)
			mustClaim(t, store, leaderboard.MainBoard, "2026-10", p, "grant-m-"+p)
		}

		e, err := store.ErasePlayer(ctx, erasedID, "GDPR request 1234")
		if err != nil {
			t.Fatal(err)
		}
		if e.PlayerID != erasedID || e.Periods != 5 || e.CorrectedPeriods != 3 || !e.ErasedAt.Equal(now) {
			t.Fatalf("erasure %+v", e)
		}

		// Nothing stored holds the id or the name, not even the reason an
		// admin gave for correcting them (it may name them).
		if found := rowsHolding(t, erasedID, erasedName); len(found) != 0 {
			t.Errorf("after the erasure: %v", found)
		}
		audit := mustQuery(t, `SELECT player_hash, reason, status, COALESCE(player_id, '-') FROM erasures`)
		if fmt.Sprint(audit) != fmt.Sprint([][]string{{leaderboard.ErasureHash(erasureKey, erasedID), "GDPR request 1234", "DONE", "-"}}) {
			t.Errorf("audit %v", audit)
		}

		// Closed periods ranked again without them: digests as an oracle's.
		for _, c := range []struct {
			board, key string
			want       string
		}{
			{leaderboard.MainBoard, "2026-10", digestOf([]string{"bob", "cid"}, []int{800, 700})},
			{"daily", "2026-11-18", digestOf([]string{"bob", "cid"}, []int{80, 70})},
			{"daily", "2026-11-19", digestOf([]string{"bob", "cid"}, []int{80, 70})},
		} {
			p, err := store.Period(ctx, c.board, c.key)
			if err != nil || p.Digest != c.want || p.Participants != 2 {
				t.Errorf("period %s of %s: %+v, %v; want digest %s", c.key, c.board, p, err, c.want)
			}
			if s := standingOf(t, store, c.board, c.key, erasedID); s != nil {
				t.Errorf("still stands in %s of %s: %+v", c.key, c.board, s)
			}
			if rows := exportRows(t, store, c.board, c.key); len(rows) != 2 || rows[0][1] != "bob" {
				t.Errorf("export of %s of %s: %v", c.key, c.board, rows)
			}
		}
		for _, key := range []string{"2026-11-20"} {
			if s := standingOf(t, store, "daily", key, "bob"); s == nil || s.Rank != 1 || s.Total != 1 {
				t.Errorf("bob in the open day: %+v", s)
			}
		}
		if s, _ := mainStanding(ctx, store, november, "bob", 0, 0); s == nil || s.Rank != 1 || s.Total != 1 {
			t.Errorf("bob in the open month: %+v", s)
		}

		// The messages: one correction of each closed period, naming the
		// erasure and not the player, with bob's changed claim.
		msgs := mustQuery(t, `SELECT type, body FROM outbox WHERE type LIKE '%corrected' ORDER BY created_at`)
		if len(msgs) != 4 { // the admin's correction of 11-19, then the erasure's three
			t.Fatalf("corrections' messages: %v", msgs)
		}
		for _, m := range msgs[1:] {
			var body struct {
				Correction struct {
					PlayerID string
					Erasure  string
					Reason   string
				}
				ChangedClaims []struct{ PlayerID string }
			}
			if err := json.Unmarshal([]byte(m[1]), &body); err != nil {
				t.Fatal(err)
			}
			if body.Correction.PlayerID != "" || body.Correction.Erasure != e.ID || body.Correction.Reason != leaderboard.ErasureReason {
				t.Errorf("message %s", m[1])
			}
			if strings.Contains(m[1], `"2026-11-18"`) || strings.Contains(m[1], `"2026-10"`) {
				if len(body.ChangedClaims) != 1 || body.ChangedClaims[0].PlayerID != "bob" {
					t.Errorf("changed claims of %s", m[1])
				}
			}
		}

		// A retry of an old event answers DUPLICATE and restores nothing; a
		// claim answers NO_STANDING; a new event id is a new start.
		retries := mustSubmit(t, store, event("m4", erasedID, leaderboard.ModeSet, 500, at(60)),
			boardEvent("daily", "d1-open", erasedID, leaderboard.ModeSet, 60, utc(11, 20, 9)),
			boardEvent("daily", "d1-2026-11-18", erasedID, leaderboard.ModeSet, 90, utc(11, 18, 9)))
		for _, r := range retries {
			if r.Status != leaderboard.StatusDuplicate || r.Score != nil {
				t.Errorf("retry after the erasure: %+v", r)
			}
		}
		if s := standingOf(t, store, "daily", "2026-11-20", erasedID); s != nil {
			t.Errorf("a retry restored a standing: %+v", s)
		}
		if c, err := store.ClaimReward(ctx, "daily", "2026-11-18", erasedID, "grant-"+erasedID); err != nil ||
			c.Status != leaderboard.ClaimNoStanding {
			t.Errorf("claim after the erasure: %+v, %v", c, err)
		}
		if c, err := store.ClaimReward(ctx, leaderboard.MainBoard, "2026-10", erasedID, "grant-m-"+erasedID); err != nil ||
			c.Status != leaderboard.ClaimNoStanding {
			t.Errorf("claim of main after the erasure: %+v, %v", c, err)
		}
		if r := mustSubmit(t, store, event("m9", erasedID, leaderboard.ModeSet, 100, at(90))); r[0].Status != leaderboard.StatusApplied {
			t.Errorf("a new start: %+v", r)
		}
		if s, _ := mainStanding(ctx, store, november, erasedID, 0, 0); s == nil || s.Score != 100 || s.Rank != 2 {
			t.Errorf("the new start's standing: %+v", s)
		}

		// A second erasure finds nothing more but the new start.
		again, err := store.ErasePlayer(ctx, erasedID, "GDPR request 1234, again")
		if err != nil || again.Periods != 1 || again.CorrectedPeriods != 0 {
			t.Fatalf("second erasure %+v, %v", again, err)
		}
		third, err := store.ErasePlayer(ctx, erasedID, "GDPR request 1234, again")
		if err != nil || third.Periods != 0 || third.CorrectedPeriods != 0 {
			t.Fatalf("third erasure %+v, %v", third, err)
		}
		corrections, err := store.Corrections(ctx, "daily", "2026-11-19")
		if err != nil || len(corrections) != 2 {
			t.Fatalf("corrections %+v, %v", corrections, err)
		}
		for _, c := range corrections {
			if c.PlayerID != "" || c.Cleared || c.Erasure == nil || *c.Erasure != e.ID {
				t.Errorf("correction after the erasure %+v", c)
			}
		}
	})
}

func TestErasePlayer_RefusesBadInputAndAMissingKey(t *testing.T) {
	store := mustOpenDB(t, db.WithErasureKey(erasureKey))
	ctx := context.Background()
	for _, c := range []struct{ player, reason string }{
		{"", "ok"}, {strings.Repeat("x", 65), "ok"}, {"a\x00b", "ok"}, {"ann", ""}, {"ann", "   "},
		{"ann", strings.Repeat("r", 501)},
	} {
		if _, err := store.ErasePlayer(ctx, c.player, c.reason); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("ErasePlayer(%q, %q): %v", c.player, c.reason, err)
		}
	}
	keyless := mustOpenDB(t)
	if _, err := keyless.ErasePlayer(ctx, "ann", "ok"); leaderboard.ErrorCode(err) != leaderboard.EFORBIDDEN {
		t.Errorf("without a key: %v", err)
	}
	if got := mustQuery(t, `SELECT count(*) FROM erasures`); got[0][0] != "0" {
		t.Errorf("refused erasures left %s audit rows", got[0][0])
	}
}

func TestResumeErasures_FinishesOneCutShort(t *testing.T) {
	store := mustOpenDB(t, db.WithErasureKey(erasureKey))
	ctx := context.Background()
	mustSubmit(t, store, named(event("e1", erasedID, leaderboard.ModeSet, 10, at(1)), erasedName),
		event("e2", "bob", leaderboard.ModeSet, 5, at(2)))
	// A run that died before its first period: its row is RUNNING.
	mustQuery(t, `INSERT INTO erasures (player_hash, reason, player_id, requested_at)
		VALUES ($1, 'cut short', $2, now()) RETURNING id`, leaderboard.ErasureHash(erasureKey, erasedID), erasedID)
	n, err := store.ResumeErasures(ctx)
	if err != nil || n != 1 {
		t.Fatalf("resumed %d, %v", n, err)
	}
	if got := mustQuery(t, `SELECT status, periods FROM erasures`); fmt.Sprint(got) != "[[DONE 1]]" {
		t.Errorf("audit %v", got)
	}
	if found := rowsHolding(t, erasedID, erasedName); len(found) != 0 {
		t.Errorf("after the resumed erasure: %v", found)
	}
}
