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
	"github.com/spf13/pflag"

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
      --min-score 1 --max-score 600000 --score-format DURATION_MS --time-zone Europe/Berlin`,
		Args: cobra.ExactArgs(1),
	}
	var f createBoardFlags
	flags := cmd.Flags()
	f.bind(flags)
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("reset")
	cfg.bindDatabase(flags)
	// The service's --timezone, which every database command takes, is only
	// the default of the board's zone here: next to --time-zone it read as a
	// second zone of the board. Hidden, it keeps old scripts working as the
	// board's zone.
	_ = flags.MarkDeprecated("timezone", "it is the board's time zone here: use --time-zone")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		spec, err := f.spec(flags, args[0], cfg.Timezone)
		if err != nil {
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
		fmt.Fprintf(cmd.OutOrStdout(), "board %s %s: %s, %s, %d..%d, scores %s, time zone %s\n", created.Board.ID, verb,
			created.Board.Reset, created.Board.Order, created.Board.MinScore, created.Board.MaxScore,
			created.Board.ScoreFormat, created.Board.TimeZone)
		return nil
	}
	return cmd
}

// createBoardFlags are the rules create-board's flags give.
type createBoardFlags struct {
	name, reset, order, tiebreak, format, zone string
	minScore, maxScore, retain                 int
	grace                                      time.Duration
	startsAt, endsAt                           string
	tiers                                      []string
}

// bind adds the flags of the board's rules.
func (f *createBoardFlags) bind(flags *pflag.FlagSet) {
	flags.StringVar(&f.name, "name", "", "the board's display name (required)")
	flags.StringVar(&f.reset, "reset", "", "how periods follow each other: NONE, DAY, WEEK, MONTH or SEASON (required)")
	flags.StringVar(&f.order, "order", "DESC", "DESC: higher totals first; ASC: lower first")
	flags.IntVar(&f.minScore, "min-score", leaderboard.MinScore, "lowest total")
	flags.IntVar(&f.maxScore, "max-score", leaderboard.MaxScore, "highest total")
	flags.StringVar(&f.tiebreak, "tiebreak", "NONE", "equal totals: NONE, SUBSCORE_DESC or SUBSCORE_ASC, then who reached it first")
	flags.StringVar(&f.format, "score-format", "NUMBER",
		"how clients show a score: NUMBER, or DURATION_MS (milliseconds, shown as m:ss.mmm); no effect on ranking")
	flags.StringVar(&f.zone, "time-zone", "",
		"the board's IANA time zone, whose calendar its periods follow (default the service's, LEADERBOARD_TIMEZONE)")
	flags.DurationVar(&f.grace, "close-grace", 0, "how long after a period's end its events are still taken (default LEADERBOARD_CLOSE_GRACE)")
	flags.StringVar(&f.startsAt, "starts-at", "", "RFC 3339 start (default now)")
	flags.StringVar(&f.endsAt, "ends-at", "", "RFC 3339 end: no period starts at or after it (default: runs on)")
	flags.IntVar(&f.retain, "retain-periods", 0, "closed periods kept (default all)")
	flags.StringArrayVar(&f.tiers, "tier", nil, "a reward tier NAME:TOP_PERCENT, best first; repeat for more")
}

// spec returns the createBoard request of board id that the flags give;
// serviceZone is the --timezone (or LEADERBOARD_TIMEZONE) value, the
// board's zone when only the hidden --timezone was given.
func (f *createBoardFlags) spec(flags *pflag.FlagSet, id, serviceZone string) (leaderboard.BoardSpec, error) {
	spec := leaderboard.BoardSpec{ID: id, Name: f.name, Reset: leaderboard.Reset(f.reset),
		Order: new(leaderboard.SortOrder(f.order)), TieBreak: new(leaderboard.TieBreak(f.tiebreak)),
		ScoreFormat: new(leaderboard.ScoreFormat(f.format)), MinScore: &f.minScore, MaxScore: &f.maxScore}
	switch {
	case flags.Changed("time-zone") && flags.Changed("timezone") && f.zone != serviceZone:
		return spec, fmt.Errorf("--time-zone %s and --timezone %s: give the board's zone once, as --time-zone", f.zone, serviceZone)
	case flags.Changed("time-zone"):
		spec.TimeZone = &f.zone
	case flags.Changed("timezone"):
		spec.TimeZone = &serviceZone
	}
	if flags.Changed("close-grace") {
		spec.CloseGrace = new(int(f.grace / time.Second))
	}
	if flags.Changed("retain-periods") {
		spec.RetainPeriods = &f.retain
	}
	var err error
	if spec.StartsAt, err = optionalTime("--starts-at", f.startsAt); err != nil {
		return spec, err
	}
	if spec.EndsAt, err = optionalTime("--ends-at", f.endsAt); err != nil {
		return spec, err
	}
	spec.Tiers, err = parseTiers(f.tiers)
	return spec, err
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
