package resolvers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/auth"
)

// creationStore records the createBoard requests that reach it.
type creationStore struct {
	leaderboard.BoardService
	specs []leaderboard.BoardSpec
}

func (s *creationStore) CreateBoard(_ context.Context, spec leaderboard.BoardSpec) (*leaderboard.BoardCreation, error) {
	s.specs = append(s.specs, spec)
	return &leaderboard.BoardCreation{Board: &leaderboard.Board{ID: spec.ID, Location: time.UTC}, Created: true}, nil
}

// A Float is a JSON number (or a literal): a string, Go's hex syntax or a
// number beyond float64 fails the call with BAD_USER_INPUT before the
// resolver runs; a startsAt in the year 0000 is refused by the resolver.
func TestStrictInput_FloatsAreNumbersAndTimesWithinTheYears0001To9999(t *testing.T) {
	const (
		token  = "admin-token"
		create = `mutation C($tiers: [TierInput!], $startsAt: Time) {
			createBoard(id: "b", name: "B", reset: DAY, tiers: $tiers, startsAt: $startsAt) { created } }`
	)
	tier := func(percent any) map[string]any {
		return map[string]any{"tiers": []any{map[string]any{"name": "gold", "topPercent": percent}}}
	}
	refused := map[string]map[string]any{
		"topPercent as a string":          tier("5"),
		"topPercent as a hex string":      tier("0x1p-2"),
		"topPercent as a boolean":         tier(true),
		"topPercent beyond float64":       tier(json.Number("1e400")),
		"startsAt in the year 0000":       {"startsAt": "0000-01-01T00:00:00Z"},
		"startsAt moved into 0000":        {"startsAt": "0001-01-01T00:30:00+01:00"},
		"topPercent as a string literal":  nil,
		"topPercent as a hex in the body": nil,
	}
	literal := map[string]string{
		"topPercent as a string literal":  `mutation { createBoard(id: "b", name: "B", reset: DAY, tiers: [{name: "gold", topPercent: "5"}]) { created } }`,
		"topPercent as a hex in the body": `mutation { createBoard(id: "b", name: "B", reset: DAY, tiers: [{name: "gold", topPercent: 0x1p-2}]) { created } }`,
	}
	for _, viaGqlgen := range []bool{false, true} {
		handler := func(store *creationStore) http.Handler {
			r := &Resolver{BoardService: store, Logger: slog.New(slog.DiscardHandler)}
			return auth.New(auth.Config{AdminToken: token}).Middleware(NewHandler(r, HandlerOptions{viaGqlgen: viaGqlgen}))
		}
		for name, vars := range refused {
			t.Run(name+answeredBy(viaGqlgen), func(t *testing.T) {
				store := &creationStore{}
				query := create
				if q, ok := literal[name]; ok {
					query = q
				}
				status, body := answer(t, handler(store), token, query, vars)
				var out struct {
					Errors []struct {
						Extensions struct{ Code string }
					}
				}
				if err := json.Unmarshal([]byte(body), &out); err != nil {
					t.Fatalf("%d %s: %v", status, body, err)
				}
				if len(out.Errors) != 1 || out.Errors[0].Extensions.Code != leaderboard.EBADINPUT || status >= 500 {
					t.Errorf("%d %s, want one BAD_USER_INPUT error", status, body)
				}
				if len(store.specs) != 0 {
					t.Errorf("the store was asked %+v: %s", store.specs, body)
				}
			})
		}
		for _, percent := range []any{5, 0.25, json.Number("12.5"), json.Number("1e1")} {
			store := &creationStore{}
			status, body := answer(t, handler(store), token, create, tier(percent))
			if status != http.StatusOK || containsErrors(body) || len(store.specs) != 1 {
				t.Fatalf("topPercent %v: %d %s", percent, status, body)
			}
			want, _ := json.Marshal(percent)
			if got, _ := json.Marshal(store.specs[0].Tiers[0].TopPercent); string(got) != string(want) && !(string(want) == "1e1" && string(got) == "10") {
				t.Errorf("topPercent %v reached the store as %s", percent, got)
			}
		}
	}
}
