package leaderboard

import (
	"context"
	"strings"
	"time"
)

// Limits of the rewards' API.
const (
	MaxClaimIDLen           = 128 // longest claim id, in characters
	DefaultUnclaimedRewards = 50  // standings in an unclaimedRewards answer when first is absent
	MaxUnclaimedRewards     = 100 // most standings in one unclaimedRewards answer
)

// ClaimStatus is the outcome of a claimReward.
type ClaimStatus string

// The outcomes of a claim.
const (
	// ClaimClaimed: this claim id holds the claim (the first time, and on
	// every retry of it): grant the reward.
	ClaimClaimed ClaimStatus = "CLAIMED"
	// ClaimAlreadyClaimed: another claim id holds it: do not grant.
	ClaimAlreadyClaimed ClaimStatus = "ALREADY_CLAIMED"
	// ClaimNotFinal: the period is not CLOSED yet: ask again once it is.
	ClaimNotFinal ClaimStatus = "NOT_FINAL"
	// ClaimNoStanding: the player has no final standing in the period.
	ClaimNoStanding ClaimStatus = "NO_STANDING"
	// ClaimGone: the board or the period does not exist (never did, or was
	// dropped by retention): forget it.
	ClaimGone ClaimStatus = "GONE"
)

// Claim is the answer to a claimReward. Standing, ClaimedAt and ClaimID are
// those of the winning claim, set when Status is CLAIMED or ALREADY_CLAIMED.
type Claim struct {
	Status    ClaimStatus
	Standing  *Standing
	ClaimedAt *time.Time
	ClaimID   *string
}

// RewardService claims the rewards of final standings, exactly once each.
type RewardService interface {
	// ClaimReward claims playerID's final standing in period key of board
	// for claimID: exactly one claim id wins per (board, period, player),
	// whatever the callers, retries and instances, and every retry of it
	// answers CLAIMED with the same claimedAt and standing. EBADINPUT for a
	// malformed board id, period key, player id or claim id; every other
	// outcome is a ClaimStatus.
	ClaimReward(ctx context.Context, board, key, playerID, claimID string) (*Claim, error)
	// UnclaimedRewards returns up to first of playerID's final standings in
	// the CLOSED periods of every board, main's months included, that are
	// not claimed yet, those of the periods that ended last first, without
	// neighbours. EBADINPUT for a malformed player id.
	UnclaimedRewards(ctx context.Context, playerID string, first int) ([]Standing, error)
	// ClaimedAt returns when playerID's standing in period key of board was
	// claimed, nil when it was not.
	ClaimedAt(ctx context.Context, board, key, playerID string) (*time.Time, error)
}

// CheckClaimID returns an EBADINPUT error unless id is 1..MaxClaimIDLen
// characters of the text an event id may hold, not all of them white space
// (as a correction's reason): a blank id is a game server's bug, not a key.
func CheckClaimID(id string) *Error {
	if err := checkText("claimId", id, idText, 1, MaxClaimIDLen); err != nil {
		return err
	}
	if strings.TrimSpace(id) == "" {
		return Errorf(EBADINPUT, "claimId must not be blank")
	}
	return nil
}
