package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// boardColumns are the columns scanBoard reads, in its order.
const boardColumns = `id, name, reset, sort_order, min_score, max_score, tiebreak, time_zone,
	close_grace_seconds, starts_at, ends_at, retain_periods, tiers, created_at, score_format, cohort_size, leagues`

// tierJSON is a tier as the boards table keeps it.
type tierJSON struct {
	Name       string  `json:"name"`
	TopPercent float64 `json:"topPercent"`
}

// leagueJSON is a league as the boards table keeps it.
type leagueJSON struct {
	Name    string `json:"name"`
	Promote int    `json:"promote"`
	Demote  int    `json:"demote"`
}

// scanBoard reads one row of boardColumns. The main board follows the
// service's time zone and close grace, whatever its row says. A board whose
// zone LoadTimeZone refuses is read with a nil Location, and logged once.
func (db *DB) scanBoard(row pgx.Row) (*leaderboard.Board, error) {
	var (
		b                   leaderboard.Board
		reset, order, tie   string
		scoreFormat         string
		zone                string
		graceSeconds        int
		retain              *int32
		tiersText           []byte
		cohortSize          *int32
		leaguesText         []byte
		minScore, maxScore  int32
		startsAt, createdAt time.Time
	)
	err := row.Scan(&b.ID, &b.Name, &reset, &order, &minScore, &maxScore, &tie, &zone,
		&graceSeconds, &startsAt, &b.EndsAt, &retain, &tiersText, &createdAt, &scoreFormat, &cohortSize, &leaguesText)
	if err != nil {
		return nil, err
	}
	b.Reset, b.Order, b.TieBreak = leaderboard.Reset(reset), leaderboard.SortOrder(order), leaderboard.TieBreak(tie)
	b.ScoreFormat = leaderboard.ScoreFormat(scoreFormat)
	b.MinScore, b.MaxScore = int(minScore), int(maxScore)
	b.StartsAt, b.CreatedAt = startsAt, createdAt
	b.CloseGrace = time.Duration(graceSeconds) * time.Second
	if retain != nil {
		r := int(*retain)
		b.RetainPeriods = &r
	}
	b.TimeZone = zone
	if b.ID == leaderboard.MainBoard {
		b.TimeZone, b.Location, b.CloseGrace = db.loc.String(), db.loc, db.closeGrace
	} else if b.Location, err = leaderboard.LoadTimeZone(zone); err != nil {
		// A board stored before names were checked against the embedded
		// zone data: it is still answered, its Location nil (ZoneError).
		b.Location = nil
		if _, warned := db.zoneWarned.LoadOrStore(b.ID+"\x00"+zone, true); !warned {
			db.logger.Warn("board's time zone cannot be loaded: it is not an IANA name of the service's zone data; "+
				"a DAY, WEEK or MONTH board's periods cannot be placed until an operator sets one (docs/OPERATIONS.md)",
				"board", b.ID, "reset", reset, "time_zone", zone, "zone_data", leaderboard.TimeZoneData)
		}
	}
	var tiers []tierJSON
	if err := json.Unmarshal(tiersText, &tiers); err != nil {
		return nil, fmt.Errorf("board %s: tiers: %w", b.ID, err)
	}
	for _, t := range tiers {
		b.Tiers = append(b.Tiers, leaderboard.Tier{Name: t.Name, TopPercent: t.TopPercent})
	}
	if cohortSize != nil {
		b.CohortSize = new(int(*cohortSize))
	}
	var leagues []leagueJSON
	if err := json.Unmarshal(leaguesText, &leagues); err != nil {
		return nil, fmt.Errorf("board %s: leagues: %w", b.ID, err)
	}
	b.Leagues = make([]leaderboard.League, 0, len(leagues))
	for _, l := range leagues {
		b.Leagues = append(b.Leagues, leaderboard.League(l))
	}
	return &b, nil
}

// CreateBoard creates the board s asks for, its defaults the service's
// time zone and close grace and the clock's now, unless a board with its id
// exists: then it answers that board, Created false when its rules are those
// asked for (a request without startsAt matches any start) and ECONFLICT when
// they differ. The primary key decides between concurrent callers: exactly
// one insert creates the row, the others find it.
func (db *DB) CreateBoard(ctx context.Context, s leaderboard.BoardSpec) (*leaderboard.BoardCreation, error) {
	b, err := s.Board(leaderboard.BoardDefaults{Location: db.loc, CloseGrace: db.closeGrace, Now: db.now()})
	if err != nil {
		return nil, err
	}
	tiers := make([]tierJSON, 0, len(b.Tiers))
	for _, t := range b.Tiers {
		tiers = append(tiers, tierJSON(t))
	}
	tiersText, err := json.Marshal(tiers)
	if err != nil {
		return nil, fmt.Errorf("create board %s: tiers: %w", b.ID, err)
	}
	leagues := make([]leagueJSON, 0, len(b.Leagues))
	for _, l := range b.Leagues {
		leagues = append(leagues, leagueJSON(l))
	}
	leaguesText, err := json.Marshal(leagues)
	if err != nil {
		return nil, fmt.Errorf("create board %s: leagues: %w", b.ID, err)
	}
	const insert = `INSERT INTO boards (id, name, reset, sort_order, min_score, max_score, tiebreak,
		time_zone, close_grace_seconds, starts_at, ends_at, retain_periods, tiers, created_at, score_format, cohort_size, leagues)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
		ON CONFLICT (id) DO NOTHING
		RETURNING ` + boardColumns
	created, err := db.scanBoard(db.pool.QueryRow(ctx, insert, b.ID, b.Name, string(b.Reset), string(b.Order),
		b.MinScore, b.MaxScore, string(b.TieBreak), b.TimeZone, int(b.CloseGrace/time.Second),
		b.StartsAt, b.EndsAt, b.RetainPeriods, tiersText, b.CreatedAt, string(b.ScoreFormat), b.CohortSize, leaguesText))
	if err == nil {
		return &leaderboard.BoardCreation{Board: created, Created: true}, nil
	} else if !noRows(err) {
		return nil, errorf("create board %s: %w", b.ID, err)
	}
	existing, err := db.Board(ctx, b.ID)
	if err != nil {
		return nil, err
	} else if existing == nil {
		// Only a board dropped between the insert and the read gets here.
		return nil, errorf("create board %s: %w", b.ID, leaderboard.Errorf(leaderboard.EUNAVAILABLE,
			"board %s was created and removed at once: retry", b.ID))
	}
	if s.StartsAt == nil {
		b.StartsAt = existing.StartsAt
	}
	if !existing.SameRules(b) {
		return nil, leaderboard.Errorf(leaderboard.ECONFLICT,
			"board %s exists with other rules; a board's rules never change", b.ID)
	}
	return &leaderboard.BoardCreation{Board: existing, Created: false}, nil
}

// Board returns the board with id, or nil when there is none.
func (db *DB) Board(ctx context.Context, id string) (*leaderboard.Board, error) {
	const q = `SELECT ` + boardColumns + ` FROM boards WHERE id = $1`
	b, err := db.scanBoard(db.pool.QueryRow(ctx, q, id))
	if noRows(err) {
		return nil, nil
	} else if err != nil {
		return nil, errorf("read board %s: %w", id, err)
	}
	return b, nil
}

// boardsByIDSQL reads the boards whose ids are in $1.
const boardsByIDSQL = `SELECT ` + boardColumns + ` FROM boards WHERE id = ANY($1)`

// scanBoardsInto returns a reader of boardsByIDSQL's rows into boards.
func (db *DB) scanBoardsInto(boards map[string]*leaderboard.Board) func(pgx.Rows) error {
	return func(r pgx.Rows) error {
		defer r.Close()
		for r.Next() {
			b, err := db.scanBoard(r)
			if err != nil {
				return err
			}
			boards[b.ID] = b
		}
		return r.Err()
	}
}

// Boards returns up to first boards in id order, those after the id after
// ("" from the first).
func (db *DB) Boards(ctx context.Context, first int, after string) ([]leaderboard.Board, error) {
	const q = `SELECT ` + boardColumns + ` FROM boards WHERE id > $1 ORDER BY id LIMIT $2`
	rows, err := db.pool.Query(ctx, q, after, first)
	if err != nil {
		return nil, errorf("list boards: %w", err)
	}
	defer rows.Close()
	var boards []leaderboard.Board
	for rows.Next() {
		b, err := db.scanBoard(rows)
		if err != nil {
			return nil, errorf("list boards: %w", err)
		}
		boards = append(boards, *b)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("list boards: %w", err)
	}
	return boards, nil
}

// EndBoard brings the board's end forward to end (nil: now), so that no period starts
// at or after it. An end already at or before at stays. ENOTFOUND for an
// unknown board, EBADINPUT when at is not after the board's start and for
// the main board, which runs on.
func (db *DB) EndBoard(ctx context.Context, id string, end *time.Time) (*leaderboard.Board, error) {
	at := db.now()
	if end != nil {
		at = *end
	}
	if id == leaderboard.MainBoard {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "the board main is the monthly event: it runs on")
	}
	// A NONE board's one period ends with the board: its row's end moves in
	// the same statement, so that it is due to close at the new end.
	const q = `WITH ended AS (
			UPDATE boards SET ends_at = LEAST(ends_at, $2)
			WHERE id = $1 AND starts_at < $2 AND $2 + close_grace_seconds * interval '1 second' <= $3
			RETURNING ` + boardColumns + `
		), period AS (
			UPDATE periods SET ends_at = LEAST(ends_at, (SELECT ends_at FROM ended))
			WHERE board_id = $1 AND key = 'all' AND status = 'OPEN' AND EXISTS (SELECT 1 FROM ended)
		)
		SELECT ` + boardColumns + ` FROM ended`
	b, err := db.scanBoard(db.pool.QueryRow(ctx, q, id, at, leaderboard.MaxTime))
	if err == nil {
		return b, nil
	} else if !noRows(err) {
		return nil, errorf("end board %s: %w", id, err)
	}
	existing, err := db.Board(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case existing == nil:
		return nil, leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", id)
	case at.Add(existing.CloseGrace).After(leaderboard.MaxTime):
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "board %s ending at %s would close its last period after %s",
			id, at.UTC().Format(time.RFC3339), leaderboard.MaxTime.Format(time.RFC3339))
	}
	return nil, leaderboard.Errorf(leaderboard.EBADINPUT, "board %s starts at %s: it cannot end at %s",
		id, existing.StartsAt.UTC().Format(time.RFC3339), at.UTC().Format(time.RFC3339))
}
