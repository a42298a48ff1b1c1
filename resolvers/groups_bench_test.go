package resolvers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkGroupStandingsRequest is the Go side of one groupStandings read of
// 200 ids over HTTP, the store answering at once: what gqlgen costs to
// resolve and write a friends board of 200, beside the read itself
// (BenchmarkPeriodGroup in db). Run with
// go test -run '^$' -bench GroupStandingsRequest -benchmem ./resolvers/
func BenchmarkGroupStandingsRequest(b *testing.B) {
	h := groupHandler(&groupStore{}, 0)
	body, _ := json.Marshal(map[string]any{"query": `query G($ids: [ID!]!) { groupStandings(month: "2026-11", playerIds: $ids) {
	groupRank standing { rank score total final player { id name } } } }`, "variables": map[string]any{"ids": ids(200)}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"groupRank":200`) {
				b.Fatalf("%d %.300s", w.Code, w.Body)
			}
		}
	})
}
