package db

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// scrubMessages takes playerID out of the kept messages of one period,
// those outbox rows that match where (with whereArg as $1), delivered or
// not, for erasure id: their entries in top and changedClaims go, and a
// correction that named them names the erasure instead. A message not yet
// delivered goes out so; its signature is made of the bytes sent. It
// reports whether it changed any.
func scrubMessages(ctx context.Context, tx pgx.Tx, where string, whereArg any, playerID string, id int64) (bool, error) {
	// The id as the bodies spell it: json.Marshal escapes it the same way.
	needle, err := json.Marshal(playerID)
	if err != nil {
		return false, err
	}
	rows, err := tx.Query(ctx, `SELECT id, type, body FROM outbox WHERE `+where+` AND strpos(body, $2) > 0 FOR UPDATE`,
		whereArg, string(needle))
	if err != nil {
		return false, err
	}
	type kept struct{ id, typ, body string }
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kept, error) {
		var k kept
		return k, r.Scan(&k.id, &k.typ, &k.body)
	})
	if err != nil {
		return false, err
	}
	changed := false
	for _, m := range found {
		body, err := scrubBody(m.typ, m.body, playerID, strconv.FormatInt(id, 10))
		if err != nil {
			return false, errorf("scrub message %s: %w", m.id, err)
		}
		if body == m.body {
			continue
		}
		if _, err := tx.Exec(ctx, `UPDATE outbox SET body = $2 WHERE id = $1`, m.id, body); err != nil {
			return false, err
		}
		changed = true
	}
	return changed, nil
}

// scrubBody returns the body of a message of type typ without playerID,
// as scrubMessages says; the fields keep their order.
func scrubBody(typ, body, playerID, erasure string) (string, error) {
	var out []byte
	var err error
	if strings.HasPrefix(typ, "month.") {
		var m monthMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			return "", err
		}
		m.Top = slices.DeleteFunc(m.Top, func(e messageEntry) bool { return e.PlayerID == playerID })
		m.ChangedClaims = scrubClaims(m.ChangedClaims, playerID)
		scrubCorrection(m.Correction, playerID, erasure)
		out, err = json.Marshal(m)
	} else {
		var m periodMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			return "", err
		}
		m.Top = slices.DeleteFunc(m.Top, func(e periodEntry) bool { return e.PlayerID == playerID })
		m.ChangedClaims = scrubClaims(m.ChangedClaims, playerID)
		scrubCorrection(m.Correction, playerID, erasure)
		out, err = json.Marshal(m)
	}
	return string(out), err
}

// scrubClaims returns claims without playerID's; nil when none is left,
// as a message without changed claims has none.
func scrubClaims(claims []changedClaim, playerID string) []changedClaim {
	claims = slices.DeleteFunc(claims, func(c changedClaim) bool { return c.PlayerID == playerID })
	if len(claims) == 0 {
		return nil
	}
	return claims
}

// scrubCorrection has a correction of playerID name erasure instead, with
// the erasures' reason: the admin's may name the player.
func scrubCorrection(c *messageCorrect, playerID, erasure string) {
	if c != nil && c.PlayerID == playerID {
		c.PlayerID, c.Before, c.Erasure, c.Reason = "", nil, &erasure, leaderboard.ErasureReason
	}
}
