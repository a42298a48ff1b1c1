package leaderboard_test

import (
	"testing"
	"time"

	"github.com/gamebackend/leaderboard"
)

func TestParseMonth(t *testing.T) {
	for _, ok := range []string{"2026-01", "2026-12", "0001-01", "9999-12"} {
		m, err := leaderboard.ParseMonth(ok)
		if err != nil || m.String() != ok {
			t.Errorf("ParseMonth(%q) = %v, %v", ok, m, err)
		}
	}
	for _, bad := range []string{"", "2026-13", "2026-00", "2026-1", "26-01", "2026-01-01", "abc", "0000-01", " 2026-01"} {
		if _, err := leaderboard.ParseMonth(bad); leaderboard.ErrorCode(err) != leaderboard.EBADINPUT {
			t.Errorf("ParseMonth(%q): error %v, want BAD_USER_INPUT", bad, err)
		}
	}
}

// A refused month says what is wrong with it: close-month 2026-13 is of the
// form YYYY-MM, its month number is not.
func TestParseMonth_SaysWhatIsWrong(t *testing.T) {
	for bad, want := range map[string]string{
		"2026-13": `month "2026-13": the month number 13 is out of range (01 to 12)`,
		"2026-00": `month "2026-00": the month number 00 is out of range (01 to 12)`,
		"0000-05": `month "0000-05": the year 0000 is out of range (0001 to 9999)`,
		"2026-1":  `month "2026-1" is not of the form YYYY-MM`,
		"2026/01": `month "2026/01" is not of the form YYYY-MM`,
		"+026-01": `month "+026-01" is not of the form YYYY-MM`,
	} {
		if _, err := leaderboard.ParseMonth(bad); leaderboard.ErrorMessage(err) != want {
			t.Errorf("ParseMonth(%q): %q, want %q", bad, leaderboard.ErrorMessage(err), want)
		}
	}
}

func TestMonth_BoundsFollowTimeZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := leaderboard.ParseMonth("2026-12")
	if got, want := m.End(tokyo), time.Date(2027, 1, 1, 0, 0, 0, 0, tokyo); !got.Equal(want) {
		t.Errorf("end %s, want %s", got, want)
	}
	newYearInTokyo := time.Date(2026, 12, 31, 15, 0, 0, 0, time.UTC)
	if got := leaderboard.MonthOf(newYearInTokyo, tokyo).String(); got != "2027-01" {
		t.Errorf("month in Tokyo %s, want 2027-01", got)
	}
	if got := leaderboard.MonthOf(newYearInTokyo, time.UTC).String(); got != "2026-12" {
		t.Errorf("month in UTC %s, want 2026-12", got)
	}
}
