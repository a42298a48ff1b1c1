package db

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// Closed periods of the boards other than main, read whole for memory. A
// CLOSED period's rows no longer change but by a correction, which bumps the
// period's ranks_version (AnnouncePeriod tells every instance), so a
// ClosedPeriod answers exactly what BoardStanding and BoardLeaderboard
// would, from the same rows and with the same code for ranks and cursors,
// until its version is outdated.

// periodsChannel is the NOTIFY channel on which a committed correction of a
// CLOSED period announces "<board> <key> <ranks_version>" to every
// instance. Board ids and period keys hold no space.
const periodsChannel = "leaderboard_periods"

// ClosedPeriod is the whole of one CLOSED period of a board other than
// main, as one snapshot had it: its rows in rank order with their players'
// names of that moment. It is read-only, so safe for concurrent use.
type ClosedPeriod struct {
	key      string
	id       int32
	startsAt time.Time
	version  int
	rows     []boardEntry // in rank order
	ranks    map[string]int32
}

// Players returns how many players the period ranks.
func (p *ClosedPeriod) Players() int { return len(p.rows) }

// Version returns the ranks_version the period was read at.
func (p *ClosedPeriod) Version() int { return p.version }

// LoadClosedPeriod reads period key of b whole from one snapshot, when it is
// CLOSED: first its row, whose participants and end (its ends_at, or its
// closed_at when it has none) it passes to admit, then, if admit returns
// true, its rows. nil, without an error, when the period is not CLOSED or
// admit refused it.
func (db *DB) LoadClosedPeriod(ctx context.Context, b *leaderboard.Board, key string,
	admit func(participants int, end time.Time) bool) (*ClosedPeriod, error) {
	var p *ClosedPeriod
	err := db.readTx(ctx, func(tx pgx.Tx) error {
		const period = `SELECT id, starts_at, ranks_version, participants, COALESCE(ends_at, closed_at)
			FROM periods WHERE board_id = $1 AND key = $2 AND status = 'CLOSED'`
		loaded := &ClosedPeriod{key: key}
		var (
			participants int
			end          time.Time
		)
		err := tx.QueryRow(ctx, period, b.ID, key).Scan(&loaded.id, &loaded.startsAt, &loaded.version, &participants, &end)
		if noRows(err) {
			return nil
		} else if err != nil {
			return err
		}
		if !admit(participants, end) {
			return nil
		}
		// A million rows take seconds to read: no statement timeout, as for
		// a closed month's final ranks. The names come by one join, not a
		// probe of the players' key a row (boardEntryColumns): at a million
		// players the read took 16.6 s with the probes and 3.7 s with the
		// join, and it ran past the statement timeout on every try: the
		// period was never held.
		if err := longJob(ctx, tx); err != nil {
			return err
		}
		const all = `SELECT t.player_id, p.name, t.score, t.subscore, t.reached_at, t.metadata,
				t.sort_score, t.sort_subscore, t.seq
			FROM board_scores t JOIN players p ON p.id = t.player_id WHERE t.period_id = $1
			ORDER BY t.period_id, t.sort_score, t.sort_subscore, t.reached_at, t.seq`
		rows, err := tx.Query(ctx, all, loaded.id)
		if err != nil {
			return err
		}
		if loaded.rows, err = pgx.CollectRows(rows, scanBoardEntry); err != nil {
			return err
		}
		loaded.ranks = make(map[string]int32, len(loaded.rows))
		for i := range loaded.rows {
			loaded.rows[i].entry.Rank = i + 1
			loaded.ranks[loaded.rows[i].entry.Player.ID] = int32(i + 1)
		}
		p = loaded
		return nil
	})
	if err != nil {
		return nil, errorf("load closed period %s of %s: %w", key, b.ID, err)
	}
	return p, nil
}

// Standing returns what BoardStanding returns for playerID in the period of
// b: nil when the player has no row in it.
func (p *ClosedPeriod) Standing(b *leaderboard.Board, playerID string, above, below int) *leaderboard.Standing {
	rank := int(p.ranks[playerID])
	if rank == 0 {
		return nil
	}
	above = min(max(above, 0), leaderboard.MaxNeighbours)
	below = min(max(below, 0), leaderboard.MaxNeighbours)
	first, last := max(1, rank-above), min(len(p.rows), rank+below)
	s := &leaderboard.Standing{RankEntry: p.rows[rank-1].entry, Board: b.ID, Period: p.key, Total: len(p.rows),
		Month: leaderboard.MonthOf(p.startsAt, b.Location), Final: true}
	s.Tier = b.TierOf(s.Rank, s.Total)
	s.Above = make([]leaderboard.RankEntry, rank-first)
	for i := range s.Above {
		s.Above[i] = p.rows[first-1+i].entry
	}
	s.Below = make([]leaderboard.RankEntry, last-rank)
	for i := range s.Below {
		s.Below[i] = p.rows[rank+i].entry
	}
	return s
}

// Leaderboard returns what BoardLeaderboard returns for the page of first
// entries after the cursor; ok is false for a cursor that is malformed or
// not of this period, whose error only the database's read gives.
func (p *ClosedPeriod) Leaderboard(first int, after string) (page *leaderboard.Page, ok bool) {
	cur, err := decodeBoardCursor(after)
	if err != nil || (cur != nil && cur.periodID != p.id) {
		return nil, false
	}
	from := 0
	if cur != nil {
		// The rank a cursor carries is not trusted: counted afresh, as
		// boardPage does.
		from, _ = slices.BinarySearchFunc(p.rows, cur.key, func(r boardEntry, k boardKey) int {
			if r.key.compare(k) <= 0 {
				return -1
			}
			return 1
		})
	}
	first = max(first, 0)
	to := min(from+first, len(p.rows))
	page = &leaderboard.Page{Edges: make([]leaderboard.Edge, to-from), HasNextPage: to < len(p.rows), Total: len(p.rows)}
	for i, r := range p.rows[from:to] {
		page.Edges[i] = leaderboard.Edge{Cursor: boardCursor{periodID: p.id, rank: r.entry.Rank, key: r.key}.encode(), Entry: r.entry}
	}
	return page, true
}

// ClosedPeriodVersions calls fn with the ranks version of each of the
// periods, given as boards[i]'s keys[i], that is CLOSED; a period it does
// not call fn for was dropped, or was never closed.
func (db *DB) ClosedPeriodVersions(ctx context.Context, boards, keys []string, fn func(board, key string, version int)) error {
	const q = `SELECT p.board_id, p.key, p.ranks_version FROM unnest($1::text[], $2::text[]) AS w (board_id, key)
		JOIN periods p ON p.board_id = w.board_id AND p.key = w.key WHERE p.status = 'CLOSED'`
	rows, err := db.pool.Query(ctx, q, boards, keys)
	if err != nil {
		return errorf("read versions of closed periods: %w", err)
	}
	var (
		board, key string
		version    int
	)
	_, err = pgx.ForEachRow(rows, []any{&board, &key, &version}, func() error {
		fn(board, key, version)
		return nil
	})
	if err != nil {
		return errorf("read versions of closed periods: %w", err)
	}
	return nil
}

// ListenPeriods calls fn with each closed period of a board other than main
// whose final ranks change, as the correction that changed them is
// announced, until ctx ends or the connection fails or its server stops
// answering (a lost primary); it then returns why. Announcements made while
// no one listens are lost: ClosedPeriodVersions tells what changed
// meanwhile.
func (db *DB) ListenPeriods(ctx context.Context, fn func(board, key string, version int)) error {
	err := db.listen(ctx, periodsChannel, func(payload string) {
		fields := strings.Fields(payload)
		if len(fields) != 3 {
			return
		}
		if version, err := strconv.Atoi(fields[2]); err == nil {
			fn(fields[0], fields[1], version)
		}
	})
	return errorf("listen for corrected periods: %w", err)
}

// AnnouncePeriod announces period key of board's ranks version to every
// instance (ListenPeriods), as the correction of a CLOSED period that just
// committed left it; nothing for a period that is not CLOSED. An
// announcement lost (the process stops first) is made up for by the
// instances' checks of ClosedPeriodVersions.
func (db *DB) AnnouncePeriod(ctx context.Context, board, key string) error {
	const q = `SELECT pg_notify('` + periodsChannel + `', board_id || ' ' || key || ' ' || ranks_version)
		FROM periods WHERE board_id = $1 AND key = $2 AND status = 'CLOSED'`
	if _, err := db.pool.Exec(ctx, q, board, key); err != nil {
		return errorf("announce the version of period %s of %s: %w", key, board, err)
	}
	return nil
}
