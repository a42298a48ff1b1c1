package resolvers

import (
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/gamebackend/leaderboard"
)

// metadataRecorder is a boardStore that records whether each read was asked
// for the rows' metadata.
type metadataRecorder struct {
	boardStore
	wanted *[]bool
}

func (s metadataRecorder) PeriodStanding(ctx context.Context, b *leaderboard.Board, key, player string, above, below int) (*leaderboard.Standing, error) {
	*s.wanted = append(*s.wanted, leaderboard.MetadataWanted(ctx))
	return s.boardStore.PeriodStanding(ctx, b, key, player, above, below)
}

func (s metadataRecorder) PeriodLeaderboard(ctx context.Context, _ *leaderboard.Board, _ string, _ int, _ string) (*leaderboard.Page, error) {
	*s.wanted = append(*s.wanted, leaderboard.MetadataWanted(ctx))
	return &leaderboard.Page{Edges: []leaderboard.Edge{}}, nil
}

// Reads of a board carry the rows' metadata only when the query selects it,
// at any depth and through fragments, on both ways of answering.
func TestBoardReads_FetchMetadataOnlyWhenSelected(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{`{ standing(board: "ladder", playerId: "p-x") { rank score neighbours { rank player { name } } } }`, false},
		{`{ standing(board: "ladder", playerId: "p-x") { rank metadata } }`, true},
		{`{ standing(board: "ladder", playerId: "p-x") { rank neighbours { m: metadata } } }`, true},
		{`query { standing(board: "ladder", playerId: "p-x") { ...F } } fragment F on Standing { neighbours { metadata } }`, true},
		{`{ standing(board: "ladder", playerId: "p-x") { ... on Standing { metadata } } }`, true},
		{`{ leaderboard(board: "ladder", first: 50) { total edges { node { rank score } } } }`, false},
		{`{ leaderboard(board: "ladder", first: 50) { edges { node { rank metadata } } } }`, true},
	} {
		for _, viaGqlgen := range []bool{false, true} {
			var wanted []bool
			store := metadataRecorder{boardStore: testBoards(testBoardStanding(false), nil), wanted: &wanted}
			r := &Resolver{StandingService: store, BoardService: store, PeriodService: store,
				Logger: slog.New(slog.DiscardHandler)}
			status, body := answer(t, NewHandler(r, HandlerOptions{viaGqlgen: viaGqlgen}), "", c.query, nil)
			if status != http.StatusOK || len(wanted) != 1 || wanted[0] != c.want {
				t.Errorf("%s%s: status %d, metadata asked %v, want %t (%s)", c.query, answeredBy(viaGqlgen), status, wanted, c.want, body)
			}
		}
	}
}
