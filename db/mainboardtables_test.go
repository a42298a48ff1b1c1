package db_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// messageIDs are the parts of a message that differ from run to run.
var messageIDs = regexp.MustCompile(`"id":"[^"]*"`)

// deliverAll returns the bodies of every message due, in order.
func deliverAll(t *testing.T, store *db.DB) []string {
	t.Helper()
	var sent []string
	for {
		found, err := store.DeliverNext(context.Background(), func(_ context.Context, m leaderboard.Message) error {
			sent = append(sent, m.Type+" "+messageIDs.ReplaceAllString(string(m.Body), `"id":"-"`))
			return nil
		}, func(int) time.Duration { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			return sent
		}
	}
}

// The corrections of main's closed month, their errors, their
// month.corrected bodies, the audit list, the month export and the digest
// are byte for byte what the month code answered, wrote and sent before main
// moved onto the board tables (issue 37), for the same events.
func TestCorrectScore_MainOnTheBoardTablesKeepsItsBytes(t *testing.T) {
	store := mustOpenDB(t, db.WithSettlement(true))
	submitTable(t, store, 12)
	mustClose(t, store, november)
	ctx := context.Background()
	var answers []string
	for _, c := range []struct {
		player string
		score  *int
		reason string
	}{{"p3", nil, "aimbot"}, {"p4", new(45), "appeal upheld"}, {"p9", new(0), "refund"}} {
		got, err := store.CorrectScore(ctx, leaderboard.MainBoard, november.String(), c.player, c.score, c.reason)
		if err != nil {
			t.Fatal(err)
		}
		got.ID = "-"
		b, _ := json.Marshal(got)
		answers = append(answers, got.Month.String()+" "+string(b))
	}
	for _, c := range []struct {
		key, player string
		score       *int
		reason      string
	}{{november.String(), "zz", nil, "r"}, {november.Prev().String(), "p1", new(1), "r"},
		{november.String(), "p1", new(10001), "r"}, {"2026-1", "p1", new(1), "r"}, {november.String(), "p1", new(1), " "}} {
		_, err := store.CorrectScore(ctx, leaderboard.MainBoard, c.key, c.player, c.score, c.reason)
		answers = append(answers, leaderboard.ErrorCode(err)+" "+leaderboard.ErrorMessage(err))
	}
	var export bytes.Buffer
	if err := store.ExportStandings(ctx, leaderboard.MainBoard, november.String(), leaderboard.MonthExport, &export); err != nil {
		t.Fatal(err)
	}
	info, err := store.Month(ctx, november)
	if err != nil {
		t.Fatal(err)
	}
	list, err := store.Corrections(ctx, leaderboard.MainBoard, november.String())
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range list {
		c.ID = "-"
		b, _ := json.Marshal(c)
		listed = append(listed, c.Month.String()+" "+string(b))
	}
	got := map[string]any{"answers": answers, "messages": deliverAll(t, store)[1:], "export": export.String(),
		"digest": info.Digest, "participants": info.Participants, "corrections": listed}
	for name, want := range mainGolden {
		if g, _ := json.Marshal(got[name]); string(g) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, g, want)
		}
	}
}

// mainGolden is what the month code answered, wrote and sent for the
// corrections above (captured from it before main moved).
var mainGolden = map[string]string{
	"answers":      "[\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p3\\\",\\\"Before\\\":10,\\\"After\\\":null,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"aimbot\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\",\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p4\\\",\\\"Before\\\":30,\\\"After\\\":45,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"appeal upheld\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\",\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p9\\\",\\\"Before\\\":30,\\\"After\\\":0,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"refund\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\",\"NOT_FOUND player \\\"zz\\\" has no score in 2026-11\",\"NOT_FOUND month 2026-10 has no scores\",\"BAD_USER_INPUT total 10001 is outside the allowed range 0..10000\",\"BAD_USER_INPUT period \\\"2026-1\\\" is not a key of board main (MONTH periods are YYYY-MM)\",\"BAD_USER_INPUT reason must not be blank\"]",
	"messages":     "[\"month.corrected {\\\"id\\\":\\\"-\\\",\\\"type\\\":\\\"month.corrected\\\",\\\"month\\\":\\\"2026-11\\\",\\\"closedAt\\\":\\\"2026-11-20T12:00:00Z\\\",\\\"participants\\\":11,\\\"digest\\\":\\\"464b3d339739acafb84d084a1ec5ccdb6adc5ade15467a6e7c2ea07e0ec1d363\\\",\\\"top\\\":[{\\\"rank\\\":1,\\\"playerId\\\":\\\"p7\\\",\\\"name\\\":\\\"Player 7\\\",\\\"score\\\":40},{\\\"rank\\\":2,\\\"playerId\\\":\\\"p2\\\",\\\"name\\\":\\\"Player 2\\\",\\\"score\\\":40},{\\\"rank\\\":3,\\\"playerId\\\":\\\"p9\\\",\\\"name\\\":\\\"Player 9\\\",\\\"score\\\":30},{\\\"rank\\\":4,\\\"playerId\\\":\\\"p4\\\",\\\"name\\\":\\\"Player 4\\\",\\\"score\\\":30},{\\\"rank\\\":5,\\\"playerId\\\":\\\"p6\\\",\\\"name\\\":\\\"Player 6\\\",\\\"score\\\":20},{\\\"rank\\\":6,\\\"playerId\\\":\\\"p1\\\",\\\"name\\\":\\\"Player 1\\\",\\\"score\\\":20},{\\\"rank\\\":7,\\\"playerId\\\":\\\"p11\\\",\\\"name\\\":\\\"Player 11\\\",\\\"score\\\":20},{\\\"rank\\\":8,\\\"playerId\\\":\\\"p8\\\",\\\"name\\\":\\\"Player 8\\\",\\\"score\\\":10},{\\\"rank\\\":9,\\\"playerId\\\":\\\"p0\\\",\\\"name\\\":\\\"Player 0\\\",\\\"score\\\":0},{\\\"rank\\\":10,\\\"playerId\\\":\\\"p10\\\",\\\"name\\\":\\\"Player 10\\\",\\\"score\\\":0},{\\\"rank\\\":11,\\\"playerId\\\":\\\"p5\\\",\\\"name\\\":\\\"Player 5\\\",\\\"score\\\":0}],\\\"correction\\\":{\\\"id\\\":\\\"-\\\",\\\"playerId\\\":\\\"p3\\\",\\\"before\\\":10,\\\"after\\\":null,\\\"reason\\\":\\\"aimbot\\\",\\\"at\\\":\\\"2026-11-20T12:00:00Z\\\"}}\",\"month.corrected {\\\"id\\\":\\\"-\\\",\\\"type\\\":\\\"month.corrected\\\",\\\"month\\\":\\\"2026-11\\\",\\\"closedAt\\\":\\\"2026-11-20T12:00:00Z\\\",\\\"participants\\\":11,\\\"digest\\\":\\\"bd5c80e48d8904f3497d0f81956c2eef1f7ef4a278827784df46b764766f50a8\\\",\\\"top\\\":[{\\\"rank\\\":1,\\\"playerId\\\":\\\"p4\\\",\\\"name\\\":\\\"Player 4\\\",\\\"score\\\":45},{\\\"rank\\\":2,\\\"playerId\\\":\\\"p7\\\",\\\"name\\\":\\\"Player 7\\\",\\\"score\\\":40},{\\\"rank\\\":3,\\\"playerId\\\":\\\"p2\\\",\\\"name\\\":\\\"Player 2\\\",\\\"score\\\":40},{\\\"rank\\\":4,\\\"playerId\\\":\\\"p9\\\",\\\"name\\\":\\\"Player 9\\\",\\\"score\\\":30},{\\\"rank\\\":5,\\\"playerId\\\":\\\"p6\\\",\\\"name\\\":\\\"Player 6\\\",\\\"score\\\":20},{\\\"rank\\\":6,\\\"playerId\\\":\\\"p1\\\",\\\"name\\\":\\\"Player 1\\\",\\\"score\\\":20},{\\\"rank\\\":7,\\\"playerId\\\":\\\"p11\\\",\\\"name\\\":\\\"Player 11\\\",\\\"score\\\":20},{\\\"rank\\\":8,\\\"playerId\\\":\\\"p8\\\",\\\"name\\\":\\\"Player 8\\\",\\\"score\\\":10},{\\\"rank\\\":9,\\\"playerId\\\":\\\"p0\\\",\\\"name\\\":\\\"Player 0\\\",\\\"score\\\":0},{\\\"rank\\\":10,\\\"playerId\\\":\\\"p10\\\",\\\"name\\\":\\\"Player 10\\\",\\\"score\\\":0},{\\\"rank\\\":11,\\\"playerId\\\":\\\"p5\\\",\\\"name\\\":\\\"Player 5\\\",\\\"score\\\":0}],\\\"correction\\\":{\\\"id\\\":\\\"-\\\",\\\"playerId\\\":\\\"p4\\\",\\\"before\\\":30,\\\"after\\\":45,\\\"reason\\\":\\\"appeal upheld\\\",\\\"at\\\":\\\"2026-11-20T12:00:00Z\\\"}}\",\"month.corrected {\\\"id\\\":\\\"-\\\",\\\"type\\\":\\\"month.corrected\\\",\\\"month\\\":\\\"2026-11\\\",\\\"closedAt\\\":\\\"2026-11-20T12:00:00Z\\\",\\\"participants\\\":11,\\\"digest\\\":\\\"aaa06f9863ba817710c0460c3ab1a042954aa43d8a396848f2f1579c34aa9ca4\\\",\\\"top\\\":[{\\\"rank\\\":1,\\\"playerId\\\":\\\"p4\\\",\\\"name\\\":\\\"Player 4\\\",\\\"score\\\":45},{\\\"rank\\\":2,\\\"playerId\\\":\\\"p7\\\",\\\"name\\\":\\\"Player 7\\\",\\\"score\\\":40},{\\\"rank\\\":3,\\\"playerId\\\":\\\"p2\\\",\\\"name\\\":\\\"Player 2\\\",\\\"score\\\":40},{\\\"rank\\\":4,\\\"playerId\\\":\\\"p6\\\",\\\"name\\\":\\\"Player 6\\\",\\\"score\\\":20},{\\\"rank\\\":5,\\\"playerId\\\":\\\"p1\\\",\\\"name\\\":\\\"Player 1\\\",\\\"score\\\":20},{\\\"rank\\\":6,\\\"playerId\\\":\\\"p11\\\",\\\"name\\\":\\\"Player 11\\\",\\\"score\\\":20},{\\\"rank\\\":7,\\\"playerId\\\":\\\"p8\\\",\\\"name\\\":\\\"Player 8\\\",\\\"score\\\":10},{\\\"rank\\\":8,\\\"playerId\\\":\\\"p0\\\",\\\"name\\\":\\\"Player 0\\\",\\\"score\\\":0},{\\\"rank\\\":9,\\\"playerId\\\":\\\"p10\\\",\\\"name\\\":\\\"Player 10\\\",\\\"score\\\":0},{\\\"rank\\\":10,\\\"playerId\\\":\\\"p5\\\",\\\"name\\\":\\\"Player 5\\\",\\\"score\\\":0},{\\\"rank\\\":11,\\\"playerId\\\":\\\"p9\\\",\\\"name\\\":\\\"Player 9\\\",\\\"score\\\":0}],\\\"correction\\\":{\\\"id\\\":\\\"-\\\",\\\"playerId\\\":\\\"p9\\\",\\\"before\\\":30,\\\"after\\\":0,\\\"reason\\\":\\\"refund\\\",\\\"at\\\":\\\"2026-11-20T12:00:00Z\\\"}}\"]",
	"export":       "\"rank,player_id,player_name,score,reached_at,percentile\\n1,p4,Player 4,45,2026-11-20T12:00:00.000000Z,100.0000\\n2,p7,Player 7,40,2026-11-01T00:01:00.000000Z,90.9091\\n3,p2,Player 2,40,2026-11-01T00:02:00.000000Z,81.8182\\n4,p6,Player 6,20,2026-11-01T00:00:00.000000Z,72.7273\\n5,p1,Player 1,20,2026-11-01T00:01:00.000000Z,63.6364\\n6,p11,Player 11,20,2026-11-01T00:02:00.000000Z,54.5455\\n7,p8,Player 8,10,2026-11-01T00:02:00.000000Z,45.4545\\n8,p0,Player 0,0,2026-11-01T00:00:00.000000Z,36.3636\\n9,p10,Player 10,0,2026-11-01T00:01:00.000000Z,27.2727\\n10,p5,Player 5,0,2026-11-01T00:02:00.000000Z,18.1818\\n11,p9,Player 9,0,2026-11-20T12:00:00.000000Z,9.0909\\n\"",
	"digest":       "\"aaa06f9863ba817710c0460c3ab1a042954aa43d8a396848f2f1579c34aa9ca4\"",
	"participants": "11",
	"corrections":  "[\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p3\\\",\\\"Before\\\":10,\\\"After\\\":null,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"aimbot\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\",\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p4\\\",\\\"Before\\\":30,\\\"After\\\":45,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"appeal upheld\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\",\"2026-11 {\\\"ID\\\":\\\"-\\\",\\\"Board\\\":\\\"main\\\",\\\"Period\\\":\\\"2026-11\\\",\\\"Month\\\":{},\\\"PlayerID\\\":\\\"p9\\\",\\\"Before\\\":30,\\\"After\\\":0,\\\"Cleared\\\":false,\\\"Erasure\\\":null,\\\"Reason\\\":\\\"refund\\\",\\\"At\\\":\\\"2026-11-20T12:00:00Z\\\"}\"]",
}
