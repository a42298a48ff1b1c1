package e2e_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/app"
)

// The player the erasure tests erase, spelled so that no other text holds
// the id or the name by chance.
const (
	erasedPlayerID   = "erase-me-e2e-9c1d"
	erasedPlayerName = "Zed Erasable"
)

// withErasureKey gives the instance the key of the erasures' audit hash.
func withErasureKey(c *app.Config) { c.ErasureKey = "an e2e key for the erasures' hash" }

// digestOfStandings is a period's digest as the contract says: sha256 hex of
// one line "rank,playerId,score\n" per rank.
func digestOfStandings(players []string, scores []int) string {
	h := sha256.New()
	for i := range players {
		fmt.Fprintf(h, "%d,%s,%d\n", i+1, players[i], scores[i])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// A player in a closed week of a board and in main's open month is erased
// through one instance: after it, neither instance's answers (the closed
// week held in memory by both), the export, the period.corrected message
// nor any log line either instance writes holds their id or name; the
// week's digest is an oracle's without them; a retry of their old event is
// DUPLICATE and restores nothing; their claim answers NO_STANDING; a
// second erasure answers periods 0; bad input is BAD_USER_INPUT.
func TestErasePlayer_GoneFromAnswersMessagesAndLogs(t *testing.T) {
	receiver := newWebhookReceiver(t, 0)
	pg.Reset(t)
	a := startLogged(t, withLifecycle(receiver), withErasureKey)
	b := startLogged(t, withLifecycle(receiver), withErasureKey)
	a.mustDo(t, adminToken, `mutation { createBoard(id: "pvp", name: "PvP", reset: WEEK, maxScore: 1000,
		startsAt: "2026-01-01T00:00:00Z") { created } }`, nil, nil)
	results := a.submitRaw(t,
		map[string]any{"eventId": "w1", "playerId": erasedPlayerID, "playerName": erasedPlayerName, "mode": "SET", "value": 900,
			"board": "pvp", "metadata": map[string]any{"who": erasedPlayerName}},
		map[string]any{"eventId": "w2", "playerId": "bob", "playerName": "Bob", "mode": "SET", "value": 800, "board": "pvp"},
		map[string]any{"eventId": "w3", "playerId": "cid", "mode": "SET", "value": 700, "board": "pvp"})
	week := *results[0].Period
	month := currentMonth(t)
	a.submit(t, named(ev("m1", erasedPlayerID, "SET", 50, month.at(1)), erasedPlayerName), ev("m2", "bob", "SET", 40, month.at(2)))
	a.mustDo(t, adminToken, `mutation($k: String!) { closePeriod(board: "pvp", period: $k) { status } }`,
		map[string]any{"k": week}, nil)
	a.mustDo(t, serverToken, `mutation($k: String!, $p: ID!) { claimReward(board: "pvp", period: $k, playerId: $p, claimId: "g1") { status } }`,
		map[string]any{"k": week, "p": erasedPlayerID}, nil)
	standingQuery := `query($k: String, $p: ID!) { standing(board: "pvp", period: $k, playerId: $p) { rank player { id name } } }`
	for _, s := range []*loggedInstance{a, b} {
		// Both instances hold the closed week in memory once read.
		var got struct {
			Standing *struct{ Rank int } `json:"standing"`
		}
		s.mustDo(t, "", standingQuery, map[string]any{"k": week, "p": erasedPlayerID}, &got)
		if got.Standing == nil || got.Standing.Rank != 1 {
			t.Fatalf("before the erasure: %+v", got.Standing)
		}
	}

	// Bad input, and the game server's token, change nothing.
	for _, bad := range []struct{ player, reason, code, token string }{
		{"", "gdpr", "BAD_USER_INPUT", adminToken},
		{strings.Repeat("x", 65), "gdpr", "BAD_USER_INPUT", adminToken},
		{"bad\u202eid", "gdpr", "BAD_USER_INPUT", adminToken},
		{erasedPlayerID, "", "BAD_USER_INPUT", adminToken},
		{erasedPlayerID, "  ", "BAD_USER_INPUT", adminToken},
		{erasedPlayerID, "gdpr", "FORBIDDEN", serverToken},
	} {
		a.expectError(t, bad.token, `mutation($p: ID!, $r: String!) { erasePlayer(playerId: $p, reason: $r) { periods } }`,
			map[string]any{"p": bad.player, "r": bad.reason}, bad.code)
	}

	logsBefore := []int{len(a.log.String()), len(b.log.String())}
	var erased struct {
		ErasePlayer struct {
			ID               string `json:"id"`
			PlayerID         string `json:"playerId"`
			Periods          int    `json:"periods"`
			CorrectedPeriods int    `json:"correctedPeriods"`
			ErasedAt         string `json:"erasedAt"`
		} `json:"erasePlayer"`
	}
	erase := `mutation($p: ID!, $r: String!) { erasePlayer(playerId: $p, reason: $r) { id playerId periods correctedPeriods erasedAt } }`
	a.mustDo(t, adminToken, erase, map[string]any{"p": erasedPlayerID, "r": "GDPR request 77"}, &erased)
	if e := erased.ErasePlayer; e.PlayerID != erasedPlayerID || e.Periods != 2 || e.CorrectedPeriods != 1 || e.ErasedAt == "" {
		t.Fatalf("erasure %+v", e)
	}

	// The other instance drops the player from the week it holds.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var got struct {
			Standing *struct{ Rank int } `json:"standing"`
		}
		b.mustDo(t, "", standingQuery, map[string]any{"k": week, "p": erasedPlayerID}, &got)
		if got.Standing == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance b still has the erased player in the closed week: %+v", got.Standing)
		}
		time.Sleep(20 * time.Millisecond)
	}
	wantDigest := digestOfStandings([]string{"bob", "cid"}, []int{800, 700})
	var answers []string
	for _, s := range []*loggedInstance{a, b} {
		var got struct {
			Period struct {
				Digest       string `json:"digest"`
				Participants int    `json:"participants"`
			} `json:"period"`
			Leaderboard struct {
				Edges []struct {
					Node struct {
						Rank   int `json:"rank"`
						Player struct{ ID string }
					} `json:"node"`
				} `json:"edges"`
			} `json:"leaderboard"`
			Bob *struct{ Rank int } `json:"bob"`
		}
		s.mustDo(t, "", `query($k: String!) { period(board: "pvp", key: $k) { digest participants }
			leaderboard(board: "pvp", period: $k) { edges { node { rank player { id name } } } }
			bob: standing(board: "pvp", period: $k, playerId: "bob") { rank } }`, map[string]any{"k": week}, &got)
		if got.Period.Digest != wantDigest || got.Period.Participants != 2 || len(got.Leaderboard.Edges) != 2 ||
			got.Bob == nil || got.Bob.Rank != 1 {
			t.Errorf("the week after the erasure: %+v, want digest %s", got, wantDigest)
		}
		answers = append(answers, fmt.Sprint(got))
		var main struct {
			Standing *struct{ Rank int } `json:"standing"`
		}
		s.mustDo(t, "", `query($p: ID!) { standing(playerId: $p) { rank } }`, map[string]any{"p": erasedPlayerID}, &main)
		if main.Standing != nil {
			t.Errorf("still stands in main's open month: %+v", main.Standing)
		}
	}

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.url+"/admin/boards/pvp/periods/"+week+"/standings.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	status, csv, err := a.send(req)
	if err != nil || status != http.StatusOK || strings.Count(csv, "\n") != 3 {
		t.Errorf("export %d, %v:\n%s", status, err, csv)
	}
	answers = append(answers, csv)

	// A retry of an old event: DUPLICATE, nothing restored; the claim:
	// NO_STANDING; a second erasure: periods 0.
	retry := a.submitRaw(t, map[string]any{"eventId": "w1", "playerId": erasedPlayerID, "playerName": erasedPlayerName,
		"mode": "SET", "value": 900, "board": "pvp"})
	if retry[0].Status != "DUPLICATE" || retry[0].Score != nil {
		t.Errorf("a retry after the erasure: %+v", retry[0])
	}
	var claim struct {
		ClaimReward struct {
			Status string `json:"status"`
		} `json:"claimReward"`
	}
	a.mustDo(t, serverToken, `mutation($k: String!, $p: ID!) { claimReward(board: "pvp", period: $k, playerId: $p, claimId: "g1") { status } }`,
		map[string]any{"k": week, "p": erasedPlayerID}, &claim)
	if claim.ClaimReward.Status != "NO_STANDING" {
		t.Errorf("a claim after the erasure: %s", claim.ClaimReward.Status)
	}
	a.mustDo(t, adminToken, erase, map[string]any{"p": erasedPlayerID, "r": "GDPR request 77"}, &erased)
	if erased.ErasePlayer.Periods != 0 || erased.ErasePlayer.CorrectedPeriods != 0 {
		t.Errorf("second erasure %+v", erased.ErasePlayer)
	}

	// The period.corrected message goes out without them.
	deadline = time.Now().Add(10 * time.Second)
	var corrected string
	for corrected == "" && time.Now().Before(deadline) {
		for _, d := range receiver.received() {
			if d.eventType == "period.corrected" {
				corrected = string(d.body)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(corrected, `"erasure":"`) {
		t.Errorf("period.corrected: %q", corrected)
	}
	answers = append(answers, corrected)
	for i, s := range []*loggedInstance{a, b} {
		answers = append(answers, s.log.String()[logsBefore[i]:])
	}
	for i, text := range answers {
		for _, secret := range []string{erasedPlayerID, erasedPlayerName} {
			if strings.Contains(text, secret) {
				t.Errorf("answer, message or log %d holds %q:\n%s", i, secret, text)
			}
		}
	}
	if !strings.Contains(answers[len(answers)-2], `msg="player erased"`) {
		t.Errorf("instance a's log has no line of the erasure")
	}
}

// leaderboard erase-player erases as the mutation does, against the
// database a running instance serves: it needs the key, refuses a blank
// reason, and a second run finds nothing left.
func TestErasePlayerCommand_ErasesOnceWithTheKey(t *testing.T) {
	s := startServer(t)
	month := currentMonth(t)
	s.submit(t, named(ev("c1", erasedPlayerID, "SET", 30, month.at(1)), erasedPlayerName), ev("c2", "bob", "SET", 20, month.at(2)))
	t.Setenv("DATABASE_URL", pg.URL)
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		cmd := app.NewCommand(slog.New(slog.NewTextHandler(&out, nil)))
		cmd.SetArgs(args)
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		err := cmd.Execute()
		return out.String(), err
	}
	t.Setenv("LEADERBOARD_ERASURE_KEY", "")
	if out, err := run("erase-player", erasedPlayerID, "--reason", "gdpr"); leaderboard.ErrorCode(err) != leaderboard.EFORBIDDEN ||
		!strings.Contains(err.Error(), "LEADERBOARD_ERASURE_KEY") {
		t.Fatalf("without a key: %v\n%s", err, out)
	}
	t.Setenv("LEADERBOARD_ERASURE_KEY", "an e2e key for the erasures' hash")
	if _, err := run("erase-player", erasedPlayerID, "--reason", " "); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
		t.Fatalf("a blank reason: %v", err)
	}
	out, err := run("erase-player", erasedPlayerID, "--reason", "GDPR request 78")
	if err != nil || !strings.Contains(out, "removed from 1 periods, 0 of them closed and corrected") {
		t.Fatalf("erase-player: %v\n%s", err, out)
	}
	if strings.Contains(out, erasedPlayerID) || strings.Contains(out, erasedPlayerName) {
		t.Errorf("the command's log names the player:\n%s", out)
	}
	var got struct {
		Standing *struct{ Rank int } `json:"standing"`
		Bob      *struct{ Rank int } `json:"bob"`
	}
	s.mustDo(t, "", `query($p: ID!) { standing(playerId: $p) { rank } bob: standing(playerId: "bob") { rank } }`,
		map[string]any{"p": erasedPlayerID}, &got)
	if got.Standing != nil || got.Bob == nil || got.Bob.Rank != 1 {
		t.Errorf("after erase-player: %+v, bob %+v", got.Standing, got.Bob)
	}
	if out, err := run("erase-player", erasedPlayerID, "--reason", "GDPR request 78"); err != nil ||
		!strings.Contains(out, "removed from 0 periods") {
		t.Errorf("a second run: %v\n%s", err, out)
	}
}

// main's closed month, held in memory by two instances, loses the erased
// player on both: its correction announces the month's new version in its
// transaction.
func TestErasePlayer_ClosedMonthInMemoryOfBothInstances(t *testing.T) {
	a := startServer(t, withErasureKey)
	b, _ := startInstance(t, withErasureKey)
	past := previousMonth(t)
	a.submit(t, named(ev("p1", erasedPlayerID, "SET", 90, past.at(1)), erasedPlayerName),
		ev("p2", "bob", "SET", 80, past.at(2)), ev("p3", "cid", "SET", 70, past.at(3)))
	a.mustDo(t, adminToken, `mutation($m: Month!) { closeMonth(month: $m) { status } }`, map[string]any{"m": past.month}, nil)
	standing := `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { rank final } }`
	for _, s := range []*server{a, b} {
		var got struct {
			Standing *struct{ Rank int } `json:"standing"`
		}
		s.mustDo(t, "", standing, map[string]any{"m": past.month, "p": erasedPlayerID}, &got)
		if got.Standing == nil || got.Standing.Rank != 1 {
			t.Fatalf("before the erasure: %+v", got.Standing)
		}
	}
	awaitMonthInMemory(t, a, 3)
	a.mustDo(t, adminToken, `mutation($p: ID!) { erasePlayer(playerId: $p, reason: "GDPR request 79") { periods } }`,
		map[string]any{"p": erasedPlayerID}, nil)
	// The instance that erased answers without the player at once: its
	// memory follows the erasure before the erasure's answer.
	var right struct {
		Standing *struct{ Rank int } `json:"standing"`
	}
	a.mustDo(t, "", standing, map[string]any{"m": past.month, "p": erasedPlayerID}, &right)
	if right.Standing != nil {
		t.Fatalf("right after the erasure, the instance that made it still ranks the player: %+v", right.Standing)
	}
	for _, s := range []*server{a, b} {
		deadline := time.Now().Add(5 * time.Second)
		for {
			var got struct {
				Standing *struct{ Rank int } `json:"standing"`
				Bob      *struct{ Rank int } `json:"bob"`
				Month    struct {
					Digest string `json:"digest"`
				} `json:"month"`
			}
			s.mustDo(t, "", `query($m: Month!, $p: ID!) { standing(month: $m, playerId: $p) { rank }
				bob: standing(month: $m, playerId: "bob") { rank } month(month: $m) { digest } }`,
				map[string]any{"m": past.month, "p": erasedPlayerID}, &got)
			want := digestOfStandings([]string{"bob", "cid"}, []int{80, 70})
			if got.Standing == nil && got.Bob != nil && got.Bob.Rank == 1 && got.Month.Digest == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("an instance still answers the month as before the erasure: %+v, want digest %s", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
