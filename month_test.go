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
