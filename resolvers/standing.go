package resolvers

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// readTarget is the period a read names: a board and its period's key, or
// none when the board has no current period.
type readTarget struct {
	board *leaderboard.Board
	key   string
	none  bool
}

// target resolves the board, period and month arguments of a read: neither
// period nor month is the board's current period. EBADINPUT for both, for a
// month on a board that does not reset monthly, and for a malformed id or
// key; ENOTFOUND for an unknown board.
func (r *Resolver) target(ctx context.Context, board, period *string, month *leaderboard.Month) (readTarget, error) {
	id := leaderboard.MainBoard
	if board != nil {
		id = *board
	}
	if err := leaderboard.CheckBoardID(id); err != nil {
		return readTarget{}, err
	}
	if period != nil && month != nil {
		return readTarget{}, leaderboard.Errorf(leaderboard.EBADINPUT, "name the period or the month, not both")
	}
	key, err := mainKey(id, period, month)
	if err != nil {
		return readTarget{}, err
	}
	b, err := r.BoardService.Board(ctx, id)
	switch {
	case err != nil:
		return readTarget{}, err
	case b == nil:
		return readTarget{}, leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", id)
	case key != "":
		return readTarget{board: b, key: key}, nil
	case month != nil && b.Reset != leaderboard.ResetMonth:
		return readTarget{}, leaderboard.Errorf(leaderboard.EBADINPUT,
			"board %s resets by %s: name its period, not a month", id, b.Reset)
	}
	t := readTarget{board: b}
	switch {
	case month != nil:
		t.key = month.String()
	case period != nil:
		if _, err := b.PeriodSpan(*period); err != nil {
			return readTarget{}, err
		}
		t.key = *period
	default:
		key, ok, err := r.PeriodService.CurrentKey(ctx, b)
		if err != nil {
			return readTarget{}, err
		}
		if !ok {
			return readTarget{none: true}, nil
		}
		t.key = key
	}
	return t, nil
}

// mainKey returns the key of the month a read of board id names, when id is
// main and a month or a period is named: main's keys are months, checked
// before the board is read, with the error main has always answered; ""
// otherwise.
func mainKey(id string, period *string, month *leaderboard.Month) (string, error) {
	switch {
	case id != leaderboard.MainBoard:
		return "", nil
	case month != nil:
		return month.String(), nil
	case period != nil:
		m, err := leaderboard.ParseMainKey(*period)
		if err != nil {
			return "", err
		}
		return m.String(), nil
	}
	return "", nil
}

// standingOf reads playerID's standing in the period t names, with as many
// neighbours as the query selects.
func (r *Resolver) standingOf(ctx context.Context, t readTarget, playerID string) (*leaderboard.Standing, error) {
	if t.none {
		return nil, nil
	}
	above, below := neighbourCounts(ctx)
	return r.StandingService.PeriodStanding(readingFields(ctx), t.board, t.key, playerID, above, below)
}

// submittedKey names the row whose live rank a submit's result answers:
// main's results may leave the board and the period to their month.
func submittedKey(res *leaderboard.ScoreResult) leaderboard.PeriodPlayer {
	key := leaderboard.PeriodPlayer{Board: res.Board, Period: res.Period, PlayerID: res.PlayerID}
	if key.Board == "" {
		key.Board = leaderboard.MainBoard
	}
	if key.Period == "" && !res.Month.IsZero() {
		key.Period = res.Month.String()
	}
	return key
}

// standingBoard is the board s is a standing on: main's standings leave
// Board empty. The board field's resolver and the direct answer both write it.
func standingBoard(s *leaderboard.Standing) string {
	if s.Board == "" {
		return leaderboard.MainBoard
	}
	return s.Board
}

// standingPeriod is the key of s's period: main's standings name only the
// month.
func standingPeriod(s *leaderboard.Standing) string {
	if s.Period == "" {
		return s.Month.String()
	}
	return s.Period
}
