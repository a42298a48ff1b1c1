package db_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func TestCorrectScore_OpenMonthMovesTheLiveRank(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store,
		event("1", "a", leaderboard.ModeSet, 30, at(1)),
		event("2", "b", leaderboard.ModeSet, 20, at(2)),
		event("3", "c", leaderboard.ModeSet, 10, at(3)),
	)
	c, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, november.String(), "c", new(40), "appeal upheld")
	if err != nil || *c.Before != 10 || *c.After != 40 || c.Reason != "appeal upheld" || c.ID == "" {
		t.Fatalf("correction %+v, %v", c, err)
	}
	if s := mustStanding(t, store, "c"); s.Rank != 1 || s.Score != 40 || !s.ReachedAt.Equal(testNow) {
		t.Errorf("corrected standing %+v", s)
	}
	if _, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, november.String(), "a", nil, "cheating"); err != nil {
		t.Fatal(err)
	}
	if s, _ := mainStanding(context.Background(), store, november, "a", 0, 0); s != nil {
		t.Errorf("a removed player still stands: %+v", s)
	}
	if s := mustStanding(t, store, "b"); s.Rank != 2 || s.Total != 2 {
		t.Errorf("after the removal: %+v", s)
	}
	if info, _ := store.Month(context.Background(), november); info.Participants != 2 {
		t.Errorf("participants after the removal: %d", info.Participants)
	}
	list, err := store.Corrections(context.Background(), leaderboard.MainBoard, november.String())
	if err != nil || len(list) != 2 || list[1].After != nil || *list[1].Before != 30 || list[1].Reason != "cheating" {
		t.Fatalf("corrections %+v, %v", list, err)
	}
}

func TestCorrectScore_RefusesBadInput(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "a", leaderboard.ModeSet, 30, at(1)))
	for _, c := range []struct {
		name   string
		month  leaderboard.Month
		player string
		score  *int
		reason string
		code   string
	}{
		{"OutOfRange", november, "a", new(10001), "r", leaderboard.EBADINPUT},
		{"EmptyReason", november, "a", new(1), "  ", leaderboard.EBADINPUT},
		{"ControlInReason", november, "a", new(1), "a\x00b", leaderboard.EBADINPUT},
		{"BidiOverrideInReason", november, "a", new(1), "refund \u202etxt.exe", leaderboard.EBADINPUT},
		{"ZeroWidthInReason", november, "a", new(1), "a\u200bb", leaderboard.EBADINPUT},
		{"LongReason", november, "a", new(1), strings.Repeat("x", 501), leaderboard.EBADINPUT},
		{"UnknownMonth", november.Prev(), "a", new(1), "r", leaderboard.ENOTFOUND},
		{"RemoveUnknownPlayer", november, "zz", nil, "r", leaderboard.ENOTFOUND},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, c.month.String(), c.player, c.score, c.reason); leaderboard.ErrorCode(err) != c.code {
				t.Errorf("error %v, want code %s", err, c.code)
			}
		})
	}
	if list, _ := store.Corrections(context.Background(), leaderboard.MainBoard, november.String()); len(list) != 0 {
		t.Errorf("refused corrections were recorded: %+v", list)
	}
	// main's errors keep the month contract's words.
	for _, c := range []struct {
		month  leaderboard.Month
		player string
		score  *int
		want   string
	}{
		{november, "a", new(10001), "total 10001 is outside the allowed range 0..10000"},
		{november.Prev(), "a", new(1), "month 2026-10 has no scores"},
		{november, "zz", nil, `player "zz" has no score in 2026-11`},
	} {
		_, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, c.month.String(), c.player, c.score, "r")
		if got := leaderboard.ErrorMessage(err); got != c.want {
			t.Errorf("error %q, want %q", got, c.want)
		}
	}
}

// On a closed month a correction rebuilds the final ranks: the digest and
// participants change, and a month.corrected message follows the closed one.
func TestCorrectScore_ClosedMonthRebuildsFinalRanks(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	submitTable(t, store, 20)
	before := mustClose(t, store, november)
	top, err := mainLeaderboard(context.Background(), store, november, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	cheater := top.Edges[0].Entry.Player.ID
	if _, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, november.String(), cheater, nil, "aimbot"); err != nil {
		t.Fatal(err)
	}
	after, _ := store.Month(context.Background(), november)
	if after.Status != leaderboard.MonthClosed || after.Participants != 19 || after.Digest == before.Digest {
		t.Fatalf("after the correction: %+v (before %+v)", after, before)
	}
	if want := digestOfPages(t, store, november); after.Digest != want {
		t.Errorf("digest %s, pages hash to %s", after.Digest, want)
	}
	if s, _ := mainStanding(context.Background(), store, november, cheater, 0, 0); s != nil {
		t.Errorf("the removed player still stands: %+v", s)
	}
	var sent []leaderboard.Message
	for {
		found, err := store.DeliverNext(context.Background(), func(_ context.Context, m leaderboard.Message) error {
			sent = append(sent, m)
			return nil
		}, func(int) time.Duration { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			break
		}
	}
	if len(sent) != 2 || sent[0].Type != "month.closed" || sent[1].Type != "month.corrected" {
		t.Fatalf("messages %+v", sent)
	}
	var body struct {
		Digest       string
		Participants int
		Correction   struct {
			PlayerID string
			After    *int
			Reason   string
		}
	}
	if err := json.Unmarshal(sent[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Digest != after.Digest || body.Participants != 19 || body.Correction.PlayerID != cheater ||
		body.Correction.After != nil || body.Correction.Reason != "aimbot" {
		t.Errorf("month.corrected body %s", sent[1].Body)
	}
}

func TestCorrectScore_RemovedPlayersEventsAreRefused(t *testing.T) {
	store := mustOpenDB(t)
	mustSubmit(t, store, event("1", "cheat", leaderboard.ModeSet, 900, at(1)), event("2", "fair", leaderboard.ModeSet, 10, at(1)))
	if _, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, november.String(), "cheat", nil, "speed hack"); err != nil {
		t.Fatal(err)
	}
	results := mustSubmit(t, store, event("3", "cheat", leaderboard.ModeAdd, 5, at(2)), event("4", "fair", leaderboard.ModeAdd, 5, at(2)))
	if r := results[0]; r.Status != leaderboard.StatusRejected || r.Err.Code != leaderboard.EFORBIDDEN {
		t.Errorf("a removed player's event: %+v", r)
	}
	if r := results[1]; r.Status != leaderboard.StatusApplied {
		t.Errorf("the rest of the batch: %+v", r)
	}
	if s, _ := mainStanding(context.Background(), store, november, "cheat", 0, 0); s != nil {
		t.Errorf("a removed player stands again: %+v", s)
	}
	// An admin giving a score back re-admits the player.
	if _, err := store.CorrectScore(context.Background(), leaderboard.MainBoard, november.String(), "cheat", new(1), "appeal"); err != nil {
		t.Fatal(err)
	}
	if r := mustSubmit(t, store, event("5", "cheat", leaderboard.ModeAdd, 5, at(3)))[0]; r.Status != leaderboard.StatusApplied || *r.Score != 6 {
		t.Errorf("after re-admission: %+v", r)
	}
}
