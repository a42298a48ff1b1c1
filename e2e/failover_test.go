package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/app"
	"github.com/gamebackend/leaderboard/internal/pgtest"
	"github.com/gamebackend/leaderboard/settlement"
)

// onPair starts an instance whose DATABASE_URL names both servers of pair,
// the primary first, with target_session_attrs=read-write, as production
// names a primary and its standby.
func onPair(t *testing.T, pair *pgtest.Pair, options ...func(*app.Config)) *server {
	t.Helper()
	options = append(options, func(c *app.Config) {
		c.DatabaseURL = pair.FailoverURL
		c.RequestTimeout = 3 * time.Second
	})
	s, _ := startInstance(t, options...)
	return s
}

// failover kills pair's primary, checks that s is not ready while no server
// takes writes, promotes the standby, waits until s is ready again, and
// returns when the primary died and when the standby was promoted.
func failover(t *testing.T, s *server, pair *pgtest.Pair) (killed, promoted time.Time) {
	return failoverFrom(t, s, pair, pair.KillPrimary)
}

// failoverFrom is failover with the primary lost by lose.
func failoverFrom(t *testing.T, s *server, pair *pgtest.Pair, lose func(testing.TB)) (killed, promoted time.Time) {
	t.Helper()
	lose(t)
	killed = time.Now()
	if status, body := s.get(t, "/readyz"); status != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the primary dead and the standby not promoted: %d %s", status, body)
	}
	pair.Promote(t)
	promoted = time.Now()
	t.Logf("the standby was promoted %s after the primary's death", promoted.Sub(killed).Round(time.Millisecond))
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		status, _ := s.get(t, "/readyz")
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d a minute after the promotion", status)
		}
	}
	t.Logf("/readyz said 200 %s after the promotion", time.Since(promoted).Round(time.Millisecond))
	return killed, promoted
}

// firstSentAfter returns when the first write sent after from was
// answered, and whether there is one.
func firstSentAfter(answers []answerTimes, from time.Time) (time.Time, bool) {
	var first time.Time
	for _, a := range answers {
		if a.sent.After(from) && (first.IsZero() || a.answered.Before(first)) {
			first = a.answered
		}
	}
	return first, !first.IsZero()
}

// reads is what startReaders' readers got answered.
type reads struct{ answered, unavailable int }

// startReaders has n readers read a standing and the top of the current
// month from s until the returned function is called, which returns their
// answers. An answer other than the data or UNAVAILABLE fails the test.
func startReaders(t *testing.T, s *server, n int) func() reads {
	query := `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { rank score }
		leaderboard(month: $m, first: 10) { edges { node { rank score player { id } } } } }`
	month := currentMonth(t).month
	ctx, cancel := context.WithCancel(context.Background())
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		got reads
	)
	for r := range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				o := s.call(ctx, "", query, map[string]any{"m": month, "p": fmt.Sprintf("w%d-p0", r%4)})
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				switch {
				case o.err == nil && o.status == http.StatusOK && len(o.codes) == 0:
					got.answered++
				case o.err == nil && allUnavailable(o.codes):
					got.unavailable++
				default:
					t.Errorf("reader %d: status %d codes %v err %v: %s", r, o.status, o.codes, o.err, o.body)
					mu.Unlock()
					return
				}
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	return func() reads {
		cancel()
		wg.Wait()
		return got
	}
}

// loseUnderLoad runs writers and 8 readers on s while the primary of pair is
// lost by lose and its standby is promoted (half a second in), and returns
// what the writers got answered once each call was. It logs the time from
// the primary's loss to the first write answered after it.
func loseUnderLoad(t *testing.T, s *server, pair *pgtest.Pair, writers int, lose func(testing.TB)) writes {
	t.Helper()
	stopReaders := startReaders(t, s, 8)
	var killed, promoted time.Time
	w := submitThroughFault(t, s, writers, 12*time.Second, func() { killed, promoted = failoverFrom(t, s, pair, lose) })
	r := stopReaders()
	first, ok := firstSentAfter(w.answers, killed)
	if !ok {
		t.Fatalf("no write sent after the primary's death was answered")
	}
	t.Logf("%d writers: the first write sent after the primary's death was answered %s after it, %s after the promotion; %d calls of %d events answered, %d attempts answered UNAVAILABLE and sent again; readers: %d answered, %d UNAVAILABLE",
		writers, first.Sub(killed).Round(time.Millisecond), first.Sub(promoted).Round(time.Millisecond), w.answered, perWriterCall, w.failures, r.answered, r.unavailable)
	if r.answered == 0 {
		t.Error("the readers got no answer")
	}
	return w
}

// A primary with a synchronous standby dies under 4 writers and 8 readers,
// and the standby is promoted: the service, given both hosts, finds the new
// primary by itself. Calls in flight answer UNAVAILABLE and, sent again
// with the same event ids, apply once; /readyz says 503 while no server
// takes writes and 200 after; every event acknowledged before the death is
// on the new primary.
func TestFailover_SynchronousStandbyTakesOverWithEveryAcknowledgedEvent(t *testing.T) {
	pair := pgtest.StartPair(t, pgtest.Synchronous())
	s := onPair(t, pair)
	w := loseUnderLoad(t, s, pair, 4, pair.KillPrimary)
	checkTotals(t, s, w.calls)
}

// The primary hangs instead of dying (frozen: its port takes connections and
// nothing answers, as a host lost without a reset): after the promotion the
// service still finds the new primary by itself, although each new
// connection first spends its connect timeout on the lost one, and /readyz
// says so; no acknowledged event is lost.
func TestFailover_HungPrimaryIsLeftForThePromotedStandby(t *testing.T) {
	pair := pgtest.StartPair(t, pgtest.Synchronous())
	s := onPair(t, pair)
	w := loseUnderLoad(t, s, pair, 4, pair.FreezePrimary)
	checkTotals(t, s, w.calls)
}

// Under 8 writers, the primary dies and its standby is promoted: with a
// synchronous standby no acknowledged event is lost, even when the standby
// had fallen behind (frozen for a second before the primary's death: the
// commits wait for it); with an asynchronous one, the events the standby had
// not received are, and the test reports how many, with how far behind the
// primary the standby's flush was while the writers ran. In no case is an
// event doubled.
func TestFailover_EventsLostUnder8Writers(t *testing.T) {
	for _, tc := range []struct {
		name        string
		synchronous bool
		behind      time.Duration
	}{{"SynchronousStandbyBehind", true, time.Second}, {"Asynchronous", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			var options []pgtest.PairOption
			if tc.synchronous {
				options = append(options, pgtest.Synchronous())
			}
			pair := pgtest.StartPair(t, options...)
			s := onPair(t, pair)
			lose := pair.KillPrimary
			if tc.behind > 0 {
				lose = func(tb testing.TB) {
					pair.FreezeStandby(tb)
					time.Sleep(tc.behind)
					pair.KillPrimary(tb)
					pair.ThawStandby(tb)
				}
			}
			lag := sampleLag(t, pair)
			w := loseUnderLoad(t, s, pair, 8, lose)
			acknowledged, lost := countLost(t, pair, w.calls)
			t.Logf("%s, 8 writers: %d events acknowledged, %d lost; %s", tc.name, acknowledged, lost, lag())
			if tc.synchronous && lost != 0 {
				t.Errorf("%d acknowledged events lost with a synchronous standby", lost)
			}
		})
	}
}

// sampleLag samples, every 10 ms until the primary stops answering, how many
// bytes of WAL the primary had that its standby had not flushed yet. The
// returned function waits for the end and describes what was seen.
func sampleLag(t *testing.T, pair *pgtest.Pair) func() string {
	conn, err := pgx.Connect(t.Context(), pair.PrimaryURL)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		defer conn.Close(context.Background())
		var samples, sum, most int64
		for {
			ctx, cancel := context.WithTimeout(t.Context(), time.Second)
			var behind int64
			err := conn.QueryRow(ctx, `SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), flush_lsn)), 0)::bigint
				FROM pg_stat_replication`).Scan(&behind)
			cancel()
			if err != nil {
				break
			}
			samples, sum, most = samples+1, sum+behind, max(most, behind)
			time.Sleep(10 * time.Millisecond)
		}
		done <- fmt.Sprintf("WAL not yet flushed on the standby: mean %d bytes, most %d bytes over %d samples",
			sum/max(samples, 1), most, samples)
	}()
	return func() string { return <-done }
}

// countLost compares, on the promoted primary, each player's total with the
// events acknowledged for it, and returns how many events were acknowledged
// and how many of those are missing. A total above what was acknowledged (an
// event applied twice) fails the test.
func countLost(t *testing.T, pair *pgtest.Pair, calls []int) (acknowledged, lost int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, pair.FailoverURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	month := currentMonth(t).month
	for w, answered := range calls {
		for i := range perWriterCall {
			player := fmt.Sprintf("w%d-p%d", w, i)
			var total int
			err := conn.QueryRow(ctx, `SELECT coalesce(sum(s.score), 0) FROM board_scores s
				JOIN periods p ON p.id = s.period_id AND p.board_id = 'main' AND p.key = $1 WHERE s.player_id = $2`, month, player).Scan(&total)
			if err != nil {
				t.Fatal(err)
			}
			if total > answered {
				t.Errorf("%s: total %d after %d answered calls of +1: an event applied twice", player, total, answered)
			}
			acknowledged += answered
			lost += max(answered-total, 0)
		}
	}
	return acknowledged, lost
}

// A close of 50,000 players is cut off by the primary's loss (it waits at
// its last step, the attach of its final ranks, on a lock the test holds)
// while 4 writers run; the standby is promoted. The primary is killed, or
// hangs (its session then waits on a connection nothing will answer). The
// close resumes on the new primary by itself and finishes once, with the
// oracle's digest, and its month.closed message is delivered once.
func TestFailover_InterruptedCloseResumesOnTheNewPrimary(t *testing.T) {
	for _, tc := range []struct {
		name string
		lose func(*pgtest.Pair) func(testing.TB)
	}{
		{"Killed", func(p *pgtest.Pair) func(testing.TB) { return p.KillPrimary }},
		{"Hung", func(p *pgtest.Pair) func(testing.TB) { return p.FreezePrimary }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pair := pgtest.StartPair(t, pgtest.Synchronous())
			shared := pg
			pg = &pgtest.Postgres{URL: pair.FailoverURL} // for the seed, the oracle and sqlConn
			t.Cleanup(func() { pg = shared })
			month := seedPastMonth(t, 50_000)
			want := oracleDigest(t, month)
			holdAttach(t)
			receiver := newWebhookReceiver(t, 0)
			// Final ranks of their own, so that the close attaches them:
			// 50,000 players are under LEADERBOARD_OWN_PARTITION_PLAYERS.
			s := onPair(t, pair, withLifecycle(receiver), func(c *app.Config) { c.OwnPartitionPlayers = 1 })
			waitForAttach(t)

			var killed time.Time
			w := submitThroughFault(t, s, 4, 6*time.Second, func() { killed, _ = failoverFrom(t, s, pair, tc.lose(pair)) })
			info := waitForMonth(t, s, month, func(i *monthInfo) bool {
				return i.Settlement != nil && i.Settlement.Status == "DELIVERED"
			})
			if info.Digest == nil || *info.Digest != want || info.Participants != 50_000 {
				t.Fatalf("closed month %+v; the oracle's digest is %s", info, want)
			}
			t.Logf("the close cut off by the failover was settled on the new primary %s after the primary's loss, with the oracle's digest %s",
				time.Since(killed).Round(time.Millisecond), want)
			checkSettledOnce(t, receiver, month, want)
			checkTotals(t, s, w.calls)
		})
	}
}

// checkSettledOnce checks that month was ranked once, with one message,
// delivered once to receiver with a valid signature and the digest want.
func checkSettledOnce(t *testing.T, receiver *webhookReceiver, month, want string) {
	t.Helper()
	got := waitForDeliveries(t, receiver, 1)
	if len(got) != 1 || !settlement.Verify([]byte(webhookSecret), got[0].body, got[0].signature) {
		t.Fatalf("deliveries %+v", got)
	}
	var body struct{ Month, Digest string }
	if err := json.Unmarshal(got[0].body, &body); err != nil || body.Month != month || body.Digest != want {
		t.Errorf("message %s, %v", got[0].body, err)
	}
	checkRankedOnce(t, month)
}

// checkRankedOnce checks, in the database, that month was ranked once and
// that the outbox holds one message.
func checkRankedOnce(t *testing.T, month string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var messages, version int
	conn := sqlConn(t)
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM outbox`).Scan(&messages); err != nil || messages != 1 {
		t.Errorf("%d outbox messages, %v", messages, err)
	}
	err := conn.QueryRow(ctx, `SELECT ranks_version FROM periods WHERE board_id = 'main' AND key = $1`, month).Scan(&version)
	if err != nil || version != 1 {
		t.Errorf("the month was ranked %d times, %v", version, err)
	}
}

// holdAttach holds, on the primary, a lock on board_final_ranks_own that the close's
// attach of its final ranks waits for and reads do not: a close started now
// runs up to its last step and waits there, its transaction open, until the
// primary dies.
func holdAttach(t *testing.T) {
	t.Helper()
	tx, err := sqlConn(t).Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(context.Background(), `LOCK TABLE board_final_ranks_own IN SHARE UPDATE EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
}

// waitForAttach waits up to a minute until a close waits to attach its
// final ranks.
func waitForAttach(t *testing.T) {
	t.Helper()
	conn := sqlConn(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for {
		var waiting bool
		err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE 'ALTER TABLE board_final_ranks_own ATTACH PARTITION%')`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("no close waited to attach its final ranks within a minute")
		case <-time.After(50 * time.Millisecond):
		}
	}
}
