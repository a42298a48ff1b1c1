package leaderboard

import (
	"math"
	"strings"
	"testing"
	"time"
)

func validBoard() *Board {
	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	keep := 3
	return &Board{ID: "lap_times.eu-1", Name: "Lap times", Reset: ResetDay, Order: OrderAsc,
		MinScore: 1, MaxScore: 600000, TieBreak: TieBreakSubscoreDesc, ScoreFormat: ScoreDurationMS, TimeZone: "UTC", Location: time.UTC,
		CloseGrace: time.Minute, StartsAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), EndsAt: &end,
		RetainPeriods: &keep, Tiers: []Tier{{"gold", 1}, {"silver", 10}, {"bronze", 50}}}
}

func TestBoardValidate_OK(t *testing.T) {
	if err := validBoard().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestBoardValidate_ErrBadInput(t *testing.T) {
	tests := map[string]func(b *Board){
		"id with upper case":    func(b *Board) { b.ID = "Main" },
		"id empty":              func(b *Board) { b.ID = "" },
		"id 65 long":            func(b *Board) { b.ID = strings.Repeat("a", 65) },
		"id with a space":       func(b *Board) { b.ID = "a b" },
		"id a dot":              func(b *Board) { b.ID = "." },
		"id two dots":           func(b *Board) { b.ID = ".." },
		"id only dots":          func(b *Board) { b.ID = strings.Repeat(".", 64) },
		"name empty":            func(b *Board) { b.Name = "" },
		"name with a bidi mark": func(b *Board) { b.Name = "a\u202eb" },
		"unknown reset":         func(b *Board) { b.Reset = "YEAR" },
		"unknown order":         func(b *Board) { b.Order = "asc" },
		"unknown tiebreak":      func(b *Board) { b.TieBreak = "SUBSCORE" },
		"unknown score format":  func(b *Board) { b.ScoreFormat = "TIME" },
		"no score format":       func(b *Board) { b.ScoreFormat = "" },
		"min above max":         func(b *Board) { b.MinScore, b.MaxScore = 10, 9 },
		"negative grace":        func(b *Board) { b.CloseGrace = -time.Second },
		"grace over a week":     func(b *Board) { b.CloseGrace = 7*24*time.Hour + time.Second },
		"end at start":          func(b *Board) { e := b.StartsAt; b.EndsAt = &e },
		"negative retention":    func(b *Board) { r := -1; b.RetainPeriods = &r },
		"tiers out of order":    func(b *Board) { b.Tiers = []Tier{{"silver", 10}, {"gold", 1}} },
		"tiers with equal pct":  func(b *Board) { b.Tiers = []Tier{{"gold", 10}, {"silver", 10}} },
		"tier over 100":         func(b *Board) { b.Tiers = []Tier{{"all", 100.5}} },
		"tier at 0":             func(b *Board) { b.Tiers = []Tier{{"none", 0}} },
		"tier NaN":              func(b *Board) { b.Tiers = []Tier{{"nan", math.NaN()}} },
		"tier without a name":   func(b *Board) { b.Tiers = []Tier{{"", 10}} },
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			b := validBoard()
			change(b)
			if err := b.Validate(); ErrorCode(err) != EBADINPUT {
				t.Fatalf("Validate() = %v, want BAD_USER_INPUT", err)
			}
		})
	}
}

// Dots are fine in an id with anything else: only an id of dots alone
// would name a folder in the export's path.
func TestCheckBoardID_DotsWithOthersOK(t *testing.T) {
	for _, id := range []string{"a.", ".a", "..a", "v1.2", "._", "-.."} {
		if err := CheckBoardID(id); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
	if err := CheckBoardID(".."); ErrorCode(err) != EBADINPUT || !strings.Contains(ErrorMessage(err), "only dots") {
		t.Errorf(`"..": %v, want BAD_USER_INPUT saying it is only dots`, err)
	}
}

func TestBoardSameRules(t *testing.T) {
	a, b := validBoard(), validBoard()
	b.CreatedAt = time.Now()
	if !a.SameRules(b) {
		t.Fatal("identical rules compare different")
	}
	later := b.EndsAt.Add(time.Second)
	changes := []func(b *Board){
		func(b *Board) { b.Name = "other" },
		func(b *Board) { b.Order = OrderDesc },
		func(b *Board) { b.EndsAt = nil },
		func(b *Board) { b.EndsAt = &later },
		func(b *Board) { b.RetainPeriods = nil },
		func(b *Board) { b.Tiers = b.Tiers[:2] },
		func(b *Board) { b.TimeZone, b.Location = "Europe/Berlin", mustZone(t, "Europe/Berlin") },
		func(b *Board) { b.CloseGrace = 0 },
		func(b *Board) { b.ScoreFormat = ScoreNumber },
	}
	for i, change := range changes {
		o := validBoard()
		change(o)
		if a.SameRules(o) {
			t.Errorf("change %d: different rules compare the same", i)
		}
	}
}

func TestBoardTierOf_Boundaries(t *testing.T) {
	b := validBoard() // gold 1 %, silver 10 %, bronze 50 %
	tests := []struct {
		rank, participants int
		want               string
	}{
		{1, 100, "gold"}, {2, 100, "silver"}, {10, 100, "silver"}, {11, 100, "bronze"},
		{50, 100, "bronze"}, {51, 100, ""}, {1, 1, ""}, {1, 200, "gold"}, {3, 200, "silver"},
		{1, 2, "bronze"}, {2, 2, ""},
	}
	for _, tc := range tests {
		got := b.TierOf(tc.rank, tc.participants)
		if (got == nil) != (tc.want == "") || (got != nil && *got != tc.want) {
			t.Errorf("TierOf(%d of %d) = %v, want %q", tc.rank, tc.participants, got, tc.want)
		}
	}
}

func TestBoardStatus(t *testing.T) {
	b := validBoard()
	if s := b.Status(b.StartsAt.Add(-time.Second), false); s != BoardNotStarted {
		t.Errorf("before the start: %s", s)
	}
	if s := b.Status(b.StartsAt, false); s != BoardRunning {
		t.Errorf("at the start: %s", s)
	}
	if s := b.Status(*b.EndsAt, false); s != BoardRunning {
		t.Errorf("after the end, its last period not closed: %s", s)
	}
	if s := b.Status(*b.EndsAt, true); s != BoardEnded {
		t.Errorf("after the end, its last period closed: %s", s)
	}
}

func TestBoardSpec_DefaultsAndErrors(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	d := BoardDefaults{Location: time.UTC, CloseGrace: 15 * time.Minute, Now: now}
	b, err := BoardSpec{ID: "weekly", Name: "Weekly ladder", Reset: ResetWeek}.Board(d)
	if err != nil {
		t.Fatal(err)
	}
	if b.Order != OrderDesc || b.MinScore != 0 || b.MaxScore != 10000 || b.TieBreak != TieBreakNone ||
		b.ScoreFormat != ScoreNumber || b.Location != time.UTC || b.CloseGrace != 15*time.Minute || !b.StartsAt.Equal(now) || b.EndsAt != nil ||
		b.RetainPeriods != nil || b.Tiers == nil || len(b.Tiers) != 0 {
		t.Fatalf("defaults: %+v", b)
	}
	zone, grace := "Europe/Berlin", 60
	b, err = BoardSpec{ID: "laps", Name: "Laps", Reset: ResetDay, TimeZone: &zone, CloseGrace: &grace}.Board(d)
	if err != nil || b.Location.String() != zone || b.CloseGrace != time.Minute {
		t.Fatalf("named zone and grace: %+v, %v", b, err)
	}
	if b.TimeZone != zone {
		t.Fatalf("named zone: TimeZone %q, want %q", b.TimeZone, zone)
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus", "../../etc/passwd", "posix/Europe/Berlin"} {
		if _, err := (BoardSpec{ID: "x", Name: "X", Reset: ResetDay, TimeZone: &bad}).Board(d); ErrorCode(err) != EBADINPUT {
			t.Errorf("time zone %q: %v, want BAD_USER_INPUT", bad, err)
		}
	}
	negative := -1
	if _, err := (BoardSpec{ID: "x", Name: "X", Reset: ResetDay, CloseGrace: &negative}).Board(d); ErrorCode(err) != EBADINPUT {
		t.Errorf("negative grace: %v, want BAD_USER_INPUT", err)
	}
}
