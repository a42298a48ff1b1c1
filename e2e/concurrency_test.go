package e2e_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

func TestConcurrency_RacingRetriesApplyEachEventOnce(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	const (
		players   = 10
		perPlayer = 30
		senders   = 6
		batchSize = 25
	)
	var events []scoreEvent
	for j := range perPlayer {
		for p := range players {
			events = append(events, ev(fmt.Sprintf("e-%d-%d", p, j), fmt.Sprintf("p%d", p), "ADD", j+1, cur.at(j)))
		}
	}
	batches := len(events) / batchSize

	// Every sender sends every event, starting at a different batch.
	results := make([][]scoreResult, senders)
	errs := make([]error, senders)
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range batches {
				b := (i + g*2) % batches
				r, err := s.trySubmit(t.Context(), events[b*batchSize:(b+1)*batchSize]...)
				if err != nil {
					errs[g] = err
					return
				}
				results[g] = append(results[g], r...)
			}
		})
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Fatalf("sender %d: %v", g, err)
		}
	}

	applied := map[string]int{}
	for _, rs := range results {
		for _, r := range rs {
			switch r.Status {
			case "APPLIED":
				applied[r.EventID]++
			case "DUPLICATE":
			default:
				t.Errorf("event %s: %s (%s), want APPLIED once and DUPLICATE otherwise", r.EventID, r.Status, strOr(r.Error, ""))
			}
		}
	}
	for _, e := range events {
		if applied[e.EventID] != 1 {
			t.Errorf("event %s was APPLIED %d times, want once", e.EventID, applied[e.EventID])
		}
	}
	const want = perPlayer * (perPlayer + 1) / 2
	for p := range players {
		st := s.mustStanding(t, cur.month, fmt.Sprintf("p%d", p))
		if st.Score != want || !st.ReachedAt.Equal(*cur.at(perPlayer - 1)) || st.Total != players {
			t.Errorf("p%d: score %d reached %s total %d, want %d reached %s, %d players",
				p, st.Score, st.ReachedAt, st.Total, want, cur.at(perPlayer-1), players)
		}
	}
}

func TestConcurrency_CloseMonthKeepsEveryAcknowledgedScore(t *testing.T) {
	s := startServer(t)
	prev := previousMonth(t)
	s.submit(t, ev("open", "shared", "ADD", 0, prev.at(0)))
	const (
		senders    = 8
		ownPlayers = 20  // players of each sender
		perCall    = 200 // events of each call: big batches keep a close racing with them
		maxCalls   = 200
	)
	// Every other event of a call is for a player all senders share: its
	// row lock makes the calls queue up while the close runs.
	playerOf := func(g, i int) string {
		if i%2 == 1 {
			return "shared"
		}
		return fmt.Sprintf("g%d-%d", g, i/2%ownPlayers)
	}
	// Each sender adds 1 per event to its own players and 0 to the shared
	// one, call after call, until the month refuses its events.
	type outcome struct {
		applied  map[string]int // APPLIED events by player
		rejected bool
		err      error
	}
	outcomes := make([]outcome, senders)
	started := make(chan struct{}, senders)
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			o := &outcomes[g]
			o.applied = map[string]int{}
			signal := sync.OnceFunc(func() { started <- struct{}{} })
			defer signal() // never leave the closer waiting
			for call := range maxCalls {
				if call == 3 {
					signal()
				}
				events := make([]scoreEvent, perCall)
				for i := range events {
					events[i] = ev(fmt.Sprintf("g%d-%d-%d", g, call, i), playerOf(g, i), "ADD", 1-i%2, prev.at(1+call%100))
				}
				results, err := s.trySubmit(t.Context(), events...)
				if err != nil {
					o.err = err
					return
				}
				for i, r := range results {
					switch {
					case r.Status == "APPLIED" && !o.rejected:
						o.applied[playerOf(g, i)]++
					case r.Status == "UNCHANGED" && !o.rejected && i%2 == 1:
					case r.Status == "REJECTED" && strOr(r.Code, "") == "MONTH_CLOSED":
						o.rejected = true
					default:
						o.err = fmt.Errorf("call %d event %s: %s %s (after a refusal: %t)",
							call, r.EventID, r.Status, strOr(r.Code, ""), o.rejected)
						return
					}
				}
				if o.rejected {
					return
				}
			}
		})
	}
	for range senders {
		<-started
	}
	closed := s.closeMonth(t, prev.month)
	wg.Wait()

	for g, o := range outcomes {
		if o.err != nil {
			t.Fatalf("sender %d: %v", g, o.err)
		}
		if !o.rejected {
			t.Fatalf("sender %d sent %d calls and was never refused after the close", g, maxCalls)
		}
		for j := range ownPlayers {
			id := fmt.Sprintf("g%d-%d", g, j)
			if st := s.mustStanding(t, prev.month, id); st.Score != o.applied[id] || !st.Final {
				t.Errorf("%s: final score %d (final %t), but %d of its events were acknowledged APPLIED",
					id, st.Score, st.Final, o.applied[id])
			}
		}
	}
	if want := senders*ownPlayers + 1; closed.Participants != want {
		t.Errorf("closed with %d participants, want %d", closed.Participants, want)
	}
}

// checkSnapshot checks what one consistent reading of a standing must show:
// neighbours on the contiguous ranks around it, clipped at the table's ends,
// self excluded, in ranking order with the standing itself.
func checkSnapshot(t *testing.T, st *standing) {
	t.Helper()
	above := min(10, st.Rank-1)
	below := min(10, st.Total-st.Rank)
	if st.Rank < 1 || st.Rank > st.Total || len(st.Neighbours) != above+below {
		t.Fatalf("%s at rank %d of %d has %d neighbours, want %d above and %d below",
			st.Player.ID, st.Rank, st.Total, len(st.Neighbours), above, below)
	}
	self := rankEntry{Rank: st.Rank, Score: st.Score, ReachedAt: st.ReachedAt, Player: st.Player}
	rows := slices.Insert(slices.Clone(st.Neighbours), above, self)
	seen := map[string]bool{}
	for i, r := range rows {
		if r.Rank != st.Rank-above+i || seen[r.Player.ID] {
			t.Fatalf("standing of %s: row %d is %s at rank %d; rows %+v", st.Player.ID, i, r.Player.ID, r.Rank, rows)
		}
		seen[r.Player.ID] = true
		if i > 0 {
			p := rows[i-1]
			if p.Score < r.Score || (p.Score == r.Score && p.ReachedAt.After(r.ReachedAt)) {
				t.Fatalf("standing of %s: rank %d (%d at %s) is above rank %d (%d at %s)",
					st.Player.ID, p.Rank, p.Score, p.ReachedAt, r.Rank, r.Score, r.ReachedAt)
			}
		}
	}
}

func TestConcurrency_StandingIsOneSnapshotWhileScoresChange(t *testing.T) {
	s := startServer(t)
	cur := currentMonth(t)
	const (
		players = 40
		writers = 2
		reads   = 60
	)
	var seed []scoreEvent
	for p := range players {
		seed = append(seed, ev(fmt.Sprintf("seed-%d", p), fmt.Sprintf("p%02d", p), "SET", p*10, cur.at(p)))
	}
	s.submit(t, seed...)

	stop := make(chan struct{})
	started := make(chan struct{}, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			signal := sync.OnceFunc(func() { started <- struct{}{} })
			defer signal()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for call := 0; ; call++ {
				select {
				case <-stop:
					return
				default:
				}
				events := make([]scoreEvent, 10)
				for i := range events {
					events[i] = ev(fmt.Sprintf("w%d-%d-%d", w, call, i), fmt.Sprintf("p%02d", rng.IntN(players)),
						"SET", rng.IntN(40)*10, cur.at(rng.IntN(maxTicks)))
				}
				if _, err := s.trySubmit(t.Context(), events...); err != nil {
					errs[w] = err
					return
				}
				signal()
			}
		})
	}
	for range writers {
		<-started
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range reads {
		checkSnapshot(t, s.mustStanding(t, cur.month, fmt.Sprintf("p%02d", rng.IntN(players))))
	}
	close(stop)
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
}
