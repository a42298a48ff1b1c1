package db_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

func TestSubmitBoardScores_BadMetadataRejectsItsEventAlone(t *testing.T) {
	store := mustOpenDB(t)
	mustCreateBoard(t, store, leaderboard.BoardSpec{ID: "race", Name: "Race", Reset: leaderboard.ResetMonth,
		TimeZone: new("UTC"), StartsAt: utc(11, 1, 0)})
	with := func(id, player, metadata string) leaderboard.ScoreEvent {
		e := boardEvent("race", id, player, leaderboard.ModeSet, 10, at(1))
		e.Metadata = json.RawMessage(metadata)
		return e
	}
	results := mustSubmit(t, store,
		with("1", "ann", `{"car":"red"}`),
		with("2", "bob", `{"k\u0000":1}`),
		with("3", "cid", `{"n":1e200000}`),
		with("4", "dan", `{"n":1e-1000000,"m":1.50e2}`),
		with("5", "eve", `{"n":1e131072}`),
		with("6", "fay", `{"n":1e131071}`),
		with("7", "gus", `{"car":"blue"}`),
	)
	assertOutcomes(t, results, applied(10), rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT),
		applied(10), rejected(leaderboard.EBADINPUT), rejected(leaderboard.EBADINPUT), applied(10))
	for _, i := range []int{1, 2, 4, 5} {
		if results[i].Err.Message == "" || !strings.Contains(results[i].Err.Message, "metadata") {
			t.Errorf("event %s: %q, want a message about its metadata", results[i].EventID, results[i].Err.Message)
		}
	}
	s, err := store.PeriodStanding(context.Background(), mustBoard(t, store, "race"), "2026-11", "dan", 0, 0)
	if err != nil || s == nil {
		t.Fatalf("dan: %+v, %v", s, err)
	}
	if got := compactJSON(t, s.Metadata); got != `{"m":150,"n":0}` {
		t.Fatalf("dan's metadata %s, want it as normalized: {\"m\":150,\"n\":0}", got)
	}

	// A read that does not answer metadata leaves it out, and only it.
	bare := leaderboard.WithoutMetadata(context.Background())
	without, err := store.PeriodStanding(bare, mustBoard(t, store, "race"), "2026-11", "dan", 5, 5)
	if err != nil || without == nil || without.Metadata != nil || without.Rank != s.Rank || len(without.Above) != 1 ||
		without.Above[0].Metadata != nil || without.Above[0].Player.ID != "ann" {
		t.Fatalf("dan without metadata: %+v, %v; want his standing with no metadata anywhere", without, err)
	}
	page, err := store.PeriodLeaderboard(bare, mustBoard(t, store, "race"), "2026-11", 10, "")
	if err != nil || len(page.Edges) != 3 || page.Edges[0].Entry.Metadata != nil || page.Edges[0].Entry.Player.ID != "ann" {
		t.Fatalf("page without metadata: %+v, %v", page, err)
	}
}

func TestBoardMetadata_SizeIsBoundedInAnswersMessagesAndTheTable(t *testing.T) {
	now := testNow
	store := mustOpenDB(t, db.WithClock(func() time.Time { return now }), db.WithSettlement(true))
	ctx := context.Background()
	for _, id := range []string{"plain", "heavy"} {
		mustCreateBoard(t, store, leaderboard.BoardSpec{ID: id, Name: id, Reset: leaderboard.ResetDay,
			TimeZone: new("UTC"), CloseGrace: new(60), StartsAt: utc(11, 1, 0)})
	}
	// The shapes that grow most from compact text: a number written out in
	// full, the separators PostgreSQL pads with spaces, characters that JSON
	// encoders escape.
	shapes := []string{
		`{"n":[` + strings.Repeat("1e31,", 30) + `1]}`,
		`{"a":[` + strings.TrimSuffix(strings.Repeat("0,", 505), ",") + `]}`,
		`{"s":"` + strings.Repeat("<", 168) + `"}`,
		`{"s":"` + strings.Repeat(`\u0001`, 168) + `"}`,
	}
	var plain, heavy []leaderboard.ScoreEvent
	for i := range 100 {
		player := fmt.Sprintf("p%03d", i)
		plain = append(plain, boardEvent("plain", "e"+player, player, leaderboard.ModeSet, 1000-i, utc(11, 20, 9)))
		e := boardEvent("heavy", "e"+player, player, leaderboard.ModeSet, 1000-i, utc(11, 20, 9))
		e.Metadata = json.RawMessage(shapes[i%len(shapes)])
		heavy = append(heavy, e)
	}
	mustSubmit(t, store, plain...)
	for i, r := range mustSubmit(t, store, heavy...) {
		if r.Status != leaderboard.StatusApplied {
			t.Fatalf("event %d of %s: %s %v, want APPLIED", i, heavy[i].Metadata, r.Status, r.Err)
		}
	}
	page, err := store.PeriodLeaderboard(ctx, mustBoard(t, store, "heavy"), "2026-11-20", 100, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Edges {
		if n := len(compactJSON(t, e.Entry.Metadata)); n > leaderboard.MaxMetadataBytes {
			t.Fatalf("rank %d answers %d bytes of metadata, want at most %d", e.Entry.Rank, n, leaderboard.MaxMetadataBytes)
		}
	}
	if got := mustQuery(t, `SELECT count(*) FROM board_scores WHERE octet_length(metadata::text) > 2048`); got[0][0] != "0" {
		t.Fatalf("%s rows store more than 2,048 bytes of metadata text", got[0][0])
	}

	now = now.Add(24 * time.Hour)
	for _, id := range []string{"plain", "heavy"} {
		if _, err := store.ClosePeriod(ctx, id, "2026-11-20"); err != nil {
			t.Fatal(err)
		}
	}
	sizes := mustQuery(t, `SELECT p.board_id, octet_length(o.body) FROM outbox o JOIN periods p ON p.board_id = o.board_id AND p.id = o.period_id
		WHERE p.key = '2026-11-20' ORDER BY p.board_id`)
	var heavySize, plainSize int
	fmt.Sscan(sizes[0][1], &heavySize)
	fmt.Sscan(sizes[1][1], &plainSize)
	if sizes[0][0] != "heavy" || heavySize-plainSize > 100*2048 {
		t.Fatalf("message sizes %v: 100 players' metadata add %d bytes, want at most %d", sizes, heavySize-plainSize, 100*2048)
	}

	// The table itself refuses what the service would never write.
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `UPDATE board_scores SET metadata = '{"n":1e3000}' WHERE player_id = 'p000'`)
	if err == nil || !strings.Contains(err.Error(), "board_scores_metadata_size") {
		t.Fatalf("a 3,000-digit number written by hand: %v, want the size check to refuse it", err)
	}
}

// compactJSON returns raw compacted, as the service answers it.
func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
