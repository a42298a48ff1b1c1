package db_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/db"
)

// A close killed at any of its phases, by an error there or by its context
// ending there, leaves no trace but its stop, and the next close ranks the
// period once: the plain sort's ranks, each once, CLOSED, one closed
// message. For main's month and a board's period, both by closePeriodTx.

// closeKillPhases are the phases each kind of close names, in order
// (db.WithClosePhase).
var closeKillPhases = map[string][]string{
	"main":                 {"stop", "partition", "lock", "read", "write", "names", "digest", "cohorts", "mark", "commit", "closed"},
	"day.asc.subscore-asc": {"stop", "partition", "lock", "read", "write", "names", "digest", "cohorts", "mark", "commit", "closed"},
	"day.asc.subscore-asc.own": {"stop", "partition", "lock", "read", "write", "index", "attach", "names", "digest", "cohorts",
		"mark", "commit", "closed"},
}

// errKilled is what the phase observer fails a close with.
var errKilled = errors.New("killed by the test")

func TestClose_KilledAtEachPhaseResumesAndRanksOnce(t *testing.T) {
	for _, kind := range oracleKinds {
		phases, ok := closeKillPhases[kind.name]
		if !ok {
			continue
		}
		t.Run(kind.name, func(t *testing.T) {
			t.Run("a whole close names its phases", func(t *testing.T) {
				var seen []string
				observe := func(_ context.Context, name string) error {
					seen = append(seen, name)
					return nil
				}
				k := openKilledClose(t, kind.name, kind.spec, kind.own, observe)
				if err := k.closeOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(seen, phases) {
					t.Fatalf("phases %v, want %v", seen, phases)
				}
				k.checkRankedOnce(t)
			})
			forEachKill(t, phases, func(t *testing.T, kill *phaseKill) {
				ctx := kill.context(t)
				k := openKilledClose(t, kind.name, kind.spec, kind.own, kill.observe)
				err := k.closeOnce(ctx)
				switch {
				case !kill.killed:
					t.Fatalf("the close never reached %s (%v)", kill.at, err)
				case err == nil:
					t.Fatalf("a close killed at %s succeeded", kill.at)
				case !kill.cancel && !errors.Is(err, errKilled):
					t.Fatalf("a close killed at %s: %v, want the observer's error", kill.at, err)
				}
				if kill.at != "closed" {
					k.checkUnclosed(t)
				}
				if err := k.closeOnce(context.Background()); err != nil {
					t.Fatalf("the close after: %v", err)
				}
				k.checkRankedOnce(t)
			})
		})
	}
}

// phaseKill kills a close once, at phase at: by an error there, or, with
// cancel, by ending the close's context there. after holds the phases
// heard after the kill.
type phaseKill struct {
	at     string
	cancel bool
	end    context.CancelFunc
	killed bool
	after  []string
}

// forEachKill runs test, as a subtest of t, with a phaseKill at each of
// phases, each way.
func forEachKill(t *testing.T, phases []string, test func(t *testing.T, kill *phaseKill)) {
	for _, at := range phases {
		for _, cancel := range []bool{false, true} {
			how := "failed"
			if cancel {
				how = "context ended"
			}
			t.Run(at+", "+how, func(t *testing.T) {
				test(t, &phaseKill{at: at, cancel: cancel})
			})
		}
	}
}

// context returns the context of the close to kill, ended at the end of
// the test.
func (k *phaseKill) context(t *testing.T) context.Context {
	ctx, end := context.WithCancel(context.Background())
	t.Cleanup(end)
	k.end = end
	return ctx
}

// observe is the close's phase observer.
func (k *phaseKill) observe(_ context.Context, name string) error {
	switch {
	case k.killed:
		k.after = append(k.after, name)
	case name != k.at:
	case k.cancel:
		k.killed = true
		k.end() // the close goes on to its next statement, which fails
	default:
		k.killed = true
		return errKilled
	}
	return nil
}

// killedClose is a period of a board of one kind, its events submitted,
// with the plain sort's table of them.
type killedClose struct {
	store *db.DB
	board *leaderboard.Board
	key   string
	table []boardOracleEntry
	// own says the period's final ranks go to a partition of their own.
	own bool
}

// openKilledClose opens a store whose closes tell observe of their phases,
// with the period of testNow of a board of spec (main when nil) holding a
// few hundred players, with ties of score, subscore and instant.
func openKilledClose(t *testing.T, id string, spec *leaderboard.BoardSpec, own bool,
	observe func(context.Context, string) error) *killedClose {
	t.Helper()
	opts := append([]db.Option{db.WithSettlement(true), db.WithClosePhase(observe)}, ownPartitions(own)...)
	k := addKilledPeriod(t, mustOpenDB(t, opts...), id, spec)
	k.own = own
	return k
}

// addKilledPeriod makes in store the period of testNow of a board of spec
// (main when nil), as openKilledClose describes.
func addKilledPeriod(t *testing.T, store *db.DB, id string, spec *leaderboard.BoardSpec) *killedClose {
	t.Helper()
	p, seasons := openOraclePeriod(t, store, id, spec)
	b := p.board()
	ob := &oracleBoard{board: b, seasons: seasons, events: map[string]boardOracleEvent{},
		rows: map[string]map[string]*boardOracleRow{}}
	model := &boardOracle{boards: map[string]*oracleBoard{b.ID: ob}}
	board := b.ID
	if board == leaderboard.MainBoard {
		board = ""
	}
	rng := rand.New(rand.NewPCG(37, 7))
	var events []leaderboard.ScoreEvent
	for i := range 300 {
		at := testNow.Add(-time.Duration(1+rng.IntN(3)) * time.Hour)
		e := leaderboard.ScoreEvent{EventID: fmt.Sprint("k", i), PlayerID: fmt.Sprintf("p%03d", i),
			Mode: leaderboard.ModeSet, Value: b.MinScore + rng.IntN(20), OccurredAt: &at, Board: board}
		if b.TieBreak != leaderboard.TieBreakNone {
			e.Subscore = new(rng.IntN(3))
		}
		events = append(events, e)
	}
	want := model.submit(events, testNow)
	if got := outcomes(p.submit(t, events)); !slices.Equal(got, want) {
		t.Fatalf("outcomes %v, want %v", got, want)
	}
	return &killedClose{store: store, board: b, key: p.key(), table: ob.table(p.key())}
}

// main says whether the period is main's month.
func (k *killedClose) main() bool { return k.board.ID == leaderboard.MainBoard }

// closeOnce runs one close of the period, as closePeriod does.
func (k *killedClose) closeOnce(ctx context.Context) error {
	_, err := k.store.ClosePeriod(ctx, k.board.ID, k.key)
	return err
}

// state reads the period's final ranks, "rank player score" in rank
// order; status, participants and digest of its row; the types of its
// messages; and the tables of final ranks of their own (main's months',
// and large periods').
func (k *killedClose) state(t *testing.T) (ranks []string, row []string, messages []string, tables []string) {
	t.Helper()
	var ranksQ, rowQ, messagesQ string
	args := []any{k.board.ID, k.key}
	if k.main() {
		args = []any{k.key + "-01"}
		ranksQ = `SELECT f.rank, f.player_id, f.score FROM board_final_ranks f JOIN periods p ON p.id = f.period_id
			WHERE p.board_id = 'main' AND p.key = to_char($1::date, 'YYYY-MM') ORDER BY f.rank`
		rowQ = `SELECT status, coalesce(participants, -1), coalesce(digest, '') FROM periods WHERE board_id = 'main' AND key = to_char($1::date, 'YYYY-MM')`
		messagesQ = `SELECT type FROM outbox o JOIN periods p ON p.id = o.period_id
			WHERE p.board_id = 'main' AND p.key = to_char($1::date, 'YYYY-MM') ORDER BY type`
	} else {
		ranksQ = `SELECT f.rank, f.player_id, f.score FROM board_final_ranks f JOIN periods p ON p.id = f.period_id
			WHERE p.board_id = $1 AND p.key = $2 ORDER BY f.rank`
		rowQ = `SELECT status, coalesce(participants, -1), coalesce(digest, '') FROM periods WHERE board_id = $1 AND key = $2`
		messagesQ = `SELECT o.type FROM outbox o JOIN periods p ON p.id = o.period_id
			WHERE p.board_id = $1 AND p.key = $2 ORDER BY o.type`
	}
	for _, r := range mustQuery(t, ranksQ, args...) {
		ranks = append(ranks, fmt.Sprint(r[0], " ", r[1], " ", r[2]))
	}
	if rows := mustQuery(t, rowQ, args...); len(rows) == 1 {
		row = rows[0]
	}
	for _, r := range mustQuery(t, messagesQ, args...) {
		messages = append(messages, r[0])
	}
	const tablesQ = `SELECT relname FROM pg_class
		WHERE relname LIKE 'board\_final\_ranks\_own\_%' AND relkind = 'r' ORDER BY relname`
	for _, r := range mustQuery(t, tablesQ) {
		tables = append(tables, r[0])
	}
	return ranks, row, messages, tables
}

// checkUnclosed checks that a killed close left the period unclosed, with
// no final ranks, message or table of them.
func (k *killedClose) checkUnclosed(t *testing.T) {
	t.Helper()
	ranks, row, messages, tables := k.state(t)
	if len(row) == 0 || row[0] == "CLOSED" || len(ranks) != 0 || len(messages) != 0 || len(tables) != 0 {
		t.Fatalf("after the killed close: row %v, %d final ranks, messages %v, tables %v", row, len(ranks), messages, tables)
	}
}

// checkRankedOnce checks that the period is CLOSED with the plain sort's
// ranks, each once, its digest, and one closed message (main's
// month.closed); a large period with one table of final ranks, its first
// version.
func (k *killedClose) checkRankedOnce(t *testing.T) {
	t.Helper()
	ranks, row, messages, tables := k.state(t)
	want := make([]string, len(k.table))
	players, scores := make([]string, len(k.table)), make([]int, len(k.table))
	for i, e := range k.table {
		want[i] = fmt.Sprint(i+1, " ", e.player, " ", e.row.Score)
		players[i], scores[i] = e.player, e.row.Score
	}
	if !slices.Equal(ranks, want) {
		t.Fatalf("final ranks (%d rows) differ from the plain sort (%d rows):\n%v\nwant\n%v", len(ranks), len(want), ranks, want)
	}
	if wantRow := []string{"CLOSED", fmt.Sprint(len(want)), digestOf(players, scores)}; !slices.Equal(row, wantRow) {
		t.Fatalf("row %v, want %v", row, wantRow)
	}
	closed, wantTables := "period.closed", []string(nil)
	switch {
	case k.main():
		closed = "month.closed"
	}
	switch {
	case k.own:
		id := mustQuery(t, `SELECT id FROM periods WHERE board_id = $1 AND key = $2`, k.board.ID, k.key)[0][0]
		wantTables = []string{"board_final_ranks_own_" + id}
	}
	if !slices.Equal(messages, []string{closed}) {
		t.Fatalf("messages %v, want one %s", messages, closed)
	}
	if !slices.Equal(tables, wantTables) {
		t.Fatalf("tables of final ranks %v, want %v", tables, wantTables)
	}
}
