package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gamebackend/leaderboard"
)

// A tier's percent is a decimal number, as the API takes it: not Go's hex
// floats, Inf or NaN, which strconv.ParseFloat reads.
func TestParseTiers_DecimalPercentsOnly(t *testing.T) {
	tiers, err := parseTiers([]string{"gold:1", "silver:12.5", "all:1e2"})
	if err != nil || len(tiers) != 3 || tiers[1].TopPercent != 12.5 || tiers[2].TopPercent != 100 {
		t.Fatalf("%+v, %v", tiers, err)
	}
	for _, v := range []string{"gold:0x1p-2", "gold:Inf", "gold:NaN", "gold:1_0", "gold", "gold:"} {
		if _, err := parseTiers([]string{v}); err == nil {
			t.Errorf("--tier %s was accepted", v)
		}
	}
}

// createBoardCmd returns the create-board command of a fresh command line.
func createBoardCmd(t *testing.T) *cobra.Command {
	t.Helper()
	cmd, _, err := NewCommand(nil).Find([]string{"create-board"})
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

func TestCreateBoard_HelpNamesOneTimeZoneOfTheBoard(t *testing.T) {
	cmd := createBoardCmd(t)
	var out bytes.Buffer
	cmd.SetOut(&out)
	if err := cmd.Help(); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	if strings.Contains(help, "--timezone") {
		t.Errorf("create-board --help shows the service's --timezone beside --time-zone:\n%s", help)
	}
	for _, want := range []string{"--time-zone string", "the board's IANA time zone", "--score-format string", "DURATION_MS"} {
		if !strings.Contains(help, want) {
			t.Errorf("create-board --help does not say %q:\n%s", want, help)
		}
	}
}

func TestCreateBoard_FlagsGiveTheSpec(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		zone     string // the board's zone asked for; "" for the default
		format   leaderboard.ScoreFormat
		errorHas string
	}{
		{"OK", []string{"--time-zone", "Asia/Tokyo", "--score-format", "DURATION_MS"}, "Asia/Tokyo", leaderboard.ScoreDurationMS, ""},
		{"Defaults", nil, "", leaderboard.ScoreNumber, ""},
		{"OldTimezoneIsTheBoards", []string{"--timezone", "Asia/Tokyo"}, "Asia/Tokyo", leaderboard.ScoreNumber, ""},
		{"BothTheSame", []string{"--timezone", "Asia/Tokyo", "--time-zone", "Asia/Tokyo"}, "Asia/Tokyo", leaderboard.ScoreNumber, ""},
		{"ErrTwoZones", []string{"--timezone", "UTC", "--time-zone", "Asia/Tokyo"}, "", "", "give the board's zone once"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var (
				f   createBoardFlags
				cfg = Config{Timezone: "UTC"}
			)
			flags := pflag.NewFlagSet("create-board", pflag.ContinueOnError)
			f.bind(flags)
			cfg.bindDatabase(flags)
			if err := flags.Parse(append([]string{"--name", "Laps", "--reset", "DAY"}, tc.args...)); err != nil {
				t.Fatal(err)
			}
			spec, err := f.spec(flags, "laps", cfg.Timezone)
			if tc.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errorHas) {
					t.Fatalf("err %v, want one saying %q", err, tc.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gotZone := ""
			if spec.TimeZone != nil {
				gotZone = *spec.TimeZone
			}
			if gotZone != tc.zone || spec.ScoreFormat == nil || *spec.ScoreFormat != tc.format {
				t.Fatalf("zone %q, format %v; want %q, %s", gotZone, spec.ScoreFormat, tc.zone, tc.format)
			}
		})
	}
}

func TestRootHelp_DescribesBoardsNotOnlyTheMonth(t *testing.T) {
	cmd := NewCommand(nil)
	for _, want := range []string{"any number of leaderboards", "reset", "order", "score range"} {
		if !strings.Contains(cmd.Short+cmd.Long, want) {
			t.Errorf("leaderboard --help does not say %q:\n%s\n%s", want, cmd.Short, cmd.Long)
		}
	}
}
