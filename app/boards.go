package app

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gamebackend/leaderboard"
)

func boardsCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "boards",
		Short: "List the boards with their rules",
		Args:  cobra.NoArgs,
	}
	cfg.bindDatabase(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		store, closeDB, err := openDB(cmd.Context(), cfg, logger)
		if err != nil {
			return err
		}
		defer closeDB()
		out := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
		fmt.Fprintln(out, "ID\tRESET\tORDER\tSCORES\tTIME ZONE\tSTARTS\tENDS\tNAME")
		after := ""
		for {
			page, err := store.Boards(cmd.Context(), leaderboard.MaxBoards, after)
			if err != nil {
				return err
			}
			for _, b := range page {
				ends := "-"
				if b.EndsAt != nil {
					ends = b.EndsAt.UTC().Format(time.RFC3339)
				}
				fmt.Fprintf(out, "%s\t%s\t%s\t%d..%d\t%s\t%s\t%s\t%s\n", b.ID, b.Reset, b.Order, b.MinScore, b.MaxScore,
					b.TimeZone, b.StartsAt.UTC().Format(time.RFC3339), ends, b.Name)
			}
			if len(page) < leaderboard.MaxBoards {
				return out.Flush()
			}
			after = page[len(page)-1].ID
		}
	}
	return cmd
}

func createBoardCommand(cfg *Config, logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "create-board ID --name NAME --reset NONE|DAY|WEEK|MONTH|SEASON",
		Short: "Create a board, as the createBoard mutation does (an identical board is not created twice)",
		Long: `create-board creates a board with the rules its flags give; the others take
their defaults. A board's rules never change: an identical request answers the
existing board, a different one for an existing id fails with CONFLICT.`,
		Example: `  leaderboard create-board pvp.weekly --name "Weekly PvP ladder" --reset WEEK --tier gold:1 --tier silver:10
  leaderboard create-board laps.daily --name "Daily time trial" --reset DAY --order ASC \
      --min-score 1 --max-score 600000 --time-zone Europe/Berlin`,
		Args: cobra.ExactArgs(1),
	}
	var (
		spec                         leaderboard.BoardSpec
		reset, order, tiebreak, zone string
		minScore, maxScore, retain   int
		grace                        time.Duration
		startsAt, endsAt             string
		tiers                        []string
	)
	flags := cmd.Flags()
	flags.StringVar(&spec.Name, "name", "", "the board's display name (required)")
	flags.StringVar(&reset, "reset", "", "how periods follow each other: NONE, DAY, WEEK, MONTH or SEASON (required)")
	flags.StringVar(&order, "order", "DESC", "DESC: higher totals first; ASC: lower first")
	flags.IntVar(&minScore, "min-score", leaderboard.MinScore, "lowest total")
	flags.IntVar(&maxScore, "max-score", leaderboard.MaxScore, "highest total")
	flags.StringVar(&tiebreak, "tiebreak", "NONE", "equal totals: NONE, SUBSCORE_DESC or SUBSCORE_ASC, then who reached it first")
	flags.StringVar(&zone, "time-zone", "", "IANA time zone of the board's calendar (default LEADERBOARD_TIMEZONE)")
	flags.DurationVar(&grace, "close-grace", 0, "how long after a period's end its events are still taken (default LEADERBOARD_CLOSE_GRACE)")
	flags.StringVar(&startsAt, "starts-at", "", "RFC 3339 start (default now)")
	flags.StringVar(&endsAt, "ends-at", "", "RFC 3339 end: no period starts at or after it (default: runs on)")
	flags.IntVar(&retain, "retain-periods", 0, "closed periods kept (default all)")
	flags.StringArrayVar(&tiers, "tier", nil, "a reward tier NAME:TOP_PERCENT, best first; repeat for more")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("reset")
	cfg.bindDatabase(flags)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		spec.ID, spec.Reset = args[0], leaderboard.Reset(reset)
		spec.Order, spec.TieBreak = new(leaderboard.SortOrder(order)), new(leaderboard.TieBreak(tiebreak))
		spec.MinScore, spec.MaxScore = &minScore, &maxScore
		if flags.Changed("time-zone") {
			spec.TimeZone = &zone
		}
		if flags.Changed("close-grace") {
			spec.CloseGrace = new(int(grace / time.Second))
		}
		if flags.Changed("retain-periods") {
			spec.RetainPeriods = &retain
		}
		var err error
		if spec.StartsAt, err = optionalTime("--starts-at", startsAt); err != nil {
			return err
		}
		if spec.EndsAt, err = optionalTime("--ends-at", endsAt); err != nil {
			return err
		}
		if spec.Tiers, err = parseTiers(tiers); err != nil {
			return err
		}
		store, closeDB, err := openDB(cmd.Context(), cfg, logger)
		if err != nil {
			return err
		}
		defer closeDB()
		created, err := store.CreateBoard(cmd.Context(), spec)
		if err != nil {
			return err
		}
		verb := "created"
		if !created.Created {
			verb = "exists already, with the same rules"
		}
		fmt.Fprintf(cmd.OutOrStdout(), "board %s %s: %s, %s, %d..%d, time zone %s\n", created.Board.ID, verb,
			created.Board.Reset, created.Board.Order, created.Board.MinScore, created.Board.MaxScore, created.Board.TimeZone)
		return nil
	}
	return cmd
}

// optionalTime parses an RFC 3339 flag value; "" is nil.
func optionalTime(flag, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, fmt.Errorf("%s %q is not an RFC 3339 time such as 2026-12-01T00:00:00Z", flag, v)
	}
	return &t, nil
}

// parseTiers parses NAME:TOP_PERCENT flag values, the percent a decimal
// number as the API takes it (not Go's hex floats, Inf or NaN).
func parseTiers(values []string) ([]leaderboard.Tier, error) {
	tiers := make([]leaderboard.Tier, 0, len(values))
	for _, v := range values {
		i := strings.LastIndexByte(v, ':')
		percent, err := strconv.ParseFloat(v[i+1:], 64)
		if i < 0 || err != nil || !json.Valid([]byte(v[i+1:])) {
			return nil, fmt.Errorf("--tier %q is not NAME:TOP_PERCENT, such as gold:1", v)
		}
		tiers = append(tiers, leaderboard.Tier{Name: v[:i], TopPercent: percent})
	}
	return tiers, nil
}
