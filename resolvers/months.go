package resolvers

import (
	"context"

	"github.com/gamebackend/leaderboard"
)

// The month fields of the API (month, months, closeMonth) answer main's
// periods, its months, as MonthInfo.

// mainBoard returns the board main, whose periods are the months.
func (r *Resolver) mainBoard(ctx context.Context) (*leaderboard.Board, error) {
	b, err := r.BoardService.Board(ctx, leaderboard.MainBoard)
	if err == nil && b == nil {
		err = leaderboard.Errorf(leaderboard.ENOTFOUND, "no board %s", leaderboard.MainBoard)
	}
	return b, err
}

// monthInfos returns main's periods as the months they are.
func monthInfos(periods []leaderboard.Period) ([]leaderboard.MonthInfo, error) {
	months := make([]leaderboard.MonthInfo, len(periods))
	for i := range periods {
		info, err := periods[i].MonthInfo()
		if err != nil {
			return nil, err
		}
		months[i] = *info
	}
	return months, nil
}
