package leaderboard

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Erasure is the outcome of a player's erasure (erasePlayer).
type Erasure struct {
	// ID is the erasure's audit row: the corrections it made name it.
	ID       string
	PlayerID string // as asked: the answer to the admin who asked, never stored
	// Periods counts the periods, of every board, open and closed, the
	// player was removed from by this call; 0 when there was nothing left
	// to erase (a second call).
	Periods int
	// CorrectedPeriods counts the CLOSED ones among them, re-ranked as
	// corrections.
	CorrectedPeriods int
	ErasedAt         time.Time
}

// ErasureReason is the reason every correction an erasure makes records
// and announces: the admin's own reason stays in the erasure's audit row,
// for it may name the player.
const ErasureReason = "player erased"

// ErasureHash is the keyed hash an erasure's audit row keeps instead of the
// player's id: the hex HMAC-SHA256 of the id with key. Without the key, the
// hash does not tell whether it is a given id's.
func ErasureHash(key []byte, playerID string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(playerID))
	return hex.EncodeToString(mac.Sum(nil))
}

// ErasureService erases players.
type ErasureService interface {
	// ErasePlayer removes playerID from every board and period, open and
	// closed: scores, events (their ids stay, so a retry answers
	// DUPLICATE), name, metadata, claims, and the player's id from the
	// corrections and messages kept. A CLOSED period is ranked again as a
	// correction (its digest changes; a month.corrected or
	// period.corrected message goes out). The audit row keeps the time,
	// the reason and ErasureHash of the id. Idempotent: a call for a player
	// already erased answers Periods 0. EBADINPUT for a bad id or reason;
	// EFORBIDDEN when no erasure key is configured; ECONFLICT while one of
	// the player's periods is CLOSING (a later call finishes the erasure).
	ErasePlayer(ctx context.Context, playerID, reason string) (*Erasure, error)
}
