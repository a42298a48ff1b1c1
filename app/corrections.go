package app

import (
	"context"
	"log/slog"

	"github.com/gamebackend/leaderboard"
)

// loggedCorrections logs every correction made: a change of a player's
// total, final ranks rebuilt, a message to the reward system, by an admin,
// belongs in the log beside its audit row.
type loggedCorrections struct {
	leaderboard.CorrectionService
	logger *slog.Logger
}

// CorrectScore corrects as the service does, logs the correction made,
// with who made it (the role, and the request's id when logged by the
// server's handler).
func (c loggedCorrections) CorrectScore(ctx context.Context, board, key, playerID string, score *int, reason string) (*leaderboard.Correction, error) {
	correction, err := c.CorrectionService.CorrectScore(ctx, board, key, playerID, score, reason)
	if err != nil {
		return nil, err
	}
	c.logger.InfoContext(ctx, "score corrected", "board", board, "period", key, "player", playerID,
		"before", total(correction.Before), "after", total(correction.After), "reason", reason, "by", correctedBy(ctx),
		"correction", correction.ID)
	return correction, nil
}

// correctedBy is the role that made a correction, as the logs show it.
func correctedBy(ctx context.Context) string {
	if p, ok := leaderboard.PrincipalFromContext(ctx); ok {
		return string(p.Role)
	}
	return "unknown"
}

// total shows a total that may be missing: "none" when the player had no
// score, or has none after a removal.
func total(score *int) any {
	if score == nil {
		return "none"
	}
	return *score
}
