package leaderboard

import (
	"strings"
	"testing"
	"time"
)

func TestLoadTimeZone_AcceptsIANANames(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Tokyo", "UTC", "Etc/UTC",
		"Etc/GMT+5", "US/Pacific", "GMT", "Asia/Kolkata", "Asia/Calcutta"} {
		loc, err := LoadTimeZone(name)
		if err != nil || loc.String() != name {
			t.Errorf("LoadTimeZone(%q) = %v, %v; want the zone of that name", name, loc, err)
		}
	}
}

// The names the issue found accepted: none is an IANA zone, and each
// depends on what the host's zoneinfo folder holds.
func TestLoadTimeZone_RefusesNamesThatAreNotIANAZones(t *testing.T) {
	for _, name := range []string{"localtime", "Factory", "posixrules", "posix/Europe/Berlin", "posix/UTC",
		"right/Europe/Berlin", "right/UTC", "./UTC", "Etc/./UTC", "Europe//Berlin", "Europe/Berlin/", "/Europe/Berlin",
		"Europe/../Europe/Berlin", "../../etc/passwd", "europe/berlin", "EUROPE/BERLIN", " UTC", "UTC ", "",
		"Local", "Mars/Olympus", "Europe", "zone.tab", "tzdata.zi", "leapseconds", "+VERSION", "Europe/Berlin\x00",
		strings.Repeat("A/", 200)} {
		_, err := LoadTimeZone(name)
		if ErrorCode(err) != EBADINPUT || !strings.Contains(ErrorMessage(err), "such as Europe/Berlin") {
			t.Errorf("LoadTimeZone(%q): %v, want BAD_USER_INPUT naming Europe/Berlin", name, err)
		}
	}
}

// The rules come from the embedded data: Berlin's winter midnight is 23:00Z
// whatever the host holds (right/Europe/Berlin put it at 22:00Z).
func TestLoadTimeZone_RulesOfTheEmbeddedData(t *testing.T) {
	loc, err := LoadTimeZone("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := time.Date(2026, 11, 25, 0, 0, 0, 0, loc).UTC(), time.Date(2026, 11, 24, 23, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Berlin's midnight of 2026-11-25 is %s, want %s", got, want)
	}
	again, _ := LoadTimeZone("Europe/Berlin")
	if again != loc {
		t.Error("a zone is loaded once and kept")
	}
}

// Every zone of the embedded data loads, but Factory.
func TestLoadTimeZone_EveryEmbeddedZoneLoads(t *testing.T) {
	files := zoneFiles()
	if len(files) < 500 {
		t.Fatalf("the embedded zone data has %d zones", len(files))
	}
	for name := range files {
		if _, err := LoadTimeZone(name); (err == nil) == notZones[name] {
			t.Errorf("LoadTimeZone(%q): %v", name, err)
		}
	}
}

func TestBoard_ZoneNotLoaded(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, reset := range []Reset{ResetDay, ResetWeek, ResetMonth} {
		b := &Board{ID: "legacy", Reset: reset, TimeZone: "posix/UTC", StartsAt: start}
		if _, _, err := b.PeriodOf(at); ErrorCode(err) != ECONFLICT || !strings.Contains(ErrorMessage(err), `"posix/UTC"`) {
			t.Errorf("%s PeriodOf: %v, want CONFLICT naming the zone", reset, err)
		}
		key, _, _ := (&Board{Reset: reset, Location: time.UTC, StartsAt: start}).PeriodOf(at)
		if _, err := b.PeriodSpan(key); ErrorCode(err) != ECONFLICT {
			t.Errorf("%s PeriodSpan(%q): %v, want CONFLICT", reset, key, err)
		}
		if _, err := b.PeriodSpan("bad key"); ErrorCode(err) != EBADINPUT {
			t.Errorf("%s PeriodSpan of a bad key: %v, want BAD_USER_INPUT first", reset, err)
		}
	}
	// NONE and SEASON boards need no calendar.
	none := &Board{ID: "legacy", Reset: ResetNone, TimeZone: "localtime", StartsAt: start}
	if key, _, err := none.PeriodOf(at); err != nil || key != PeriodAll {
		t.Errorf("NONE PeriodOf: %q, %v", key, err)
	}
	season := &Board{ID: "legacy", Reset: ResetSeason, TimeZone: "localtime", StartsAt: start}
	if _, _, err := season.PeriodOf(at); ErrorCode(err) != ENOTSTARTED {
		t.Errorf("SEASON PeriodOf: %v, want NOT_STARTED", err)
	}
	if _, err := season.PeriodSpan("s1"); err != nil {
		t.Errorf("SEASON PeriodSpan: %v", err)
	}
	if m := MonthOf(at, none.Location); m.String() != "2026-11" {
		t.Errorf("MonthOf with no zone: %s, want the UTC month", m)
	}
	if err := (&Board{Location: time.UTC}).ZoneError(); err != nil {
		t.Errorf("a loaded zone: %v", err)
	}
}
