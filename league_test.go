package leaderboard

import (
	"testing"
	"time"
)

// leagueSpec is a valid WEEK board with cohorts of 30 in three leagues.
func leagueSpec() BoardSpec {
	return BoardSpec{ID: "weekly", Name: "Weekly league", Reset: ResetWeek, CohortSize: new(30),
		Leagues: []League{{Name: "bronze", Promote: 10, Demote: 0}, {Name: "silver", Promote: 7, Demote: 5}, {Name: "gold", Promote: 0, Demote: 5}}}
}

func leagueDefaults() BoardDefaults {
	return BoardDefaults{Location: time.UTC, Now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)}
}

func TestBoardSpec_CohortsOK(t *testing.T) {
	for name, s := range map[string]BoardSpec{
		"leagues":                 leagueSpec(),
		"cohorts without leagues": {ID: "c", Name: "C", Reset: ResetNone, CohortSize: new(2)},
		"cohorts of 1000":         {ID: "c", Name: "C", Reset: ResetDay, CohortSize: new(1000)},
		"promote+demote = size":   {ID: "c", Name: "C", Reset: ResetDay, CohortSize: new(4), Leagues: []League{{Name: "a", Promote: 2, Demote: 2}}},
	} {
		t.Run(name, func(t *testing.T) {
			b, err := s.Board(leagueDefaults())
			if err != nil {
				t.Fatal(err)
			}
			if *b.CohortSize != *s.CohortSize || len(b.Leagues) != len(s.Leagues) {
				t.Fatalf("board %+v from %+v", b, s)
			}
		})
	}
}

func TestBoardSpec_CohortsErrBadInput(t *testing.T) {
	with := func(edit func(*BoardSpec)) BoardSpec {
		s := leagueSpec()
		edit(&s)
		return s
	}
	for name, s := range map[string]BoardSpec{
		"cohortSize 1":           with(func(s *BoardSpec) { s.CohortSize = new(1) }),
		"cohortSize 1001":        with(func(s *BoardSpec) { s.CohortSize = new(1001) }),
		"leagues without size":   with(func(s *BoardSpec) { s.CohortSize = nil }),
		"leagues on NONE":        with(func(s *BoardSpec) { s.Reset = ResetNone }),
		"promote+demote > size":  with(func(s *BoardSpec) { s.Leagues[1].Promote = 26 }),
		"empty league name":      with(func(s *BoardSpec) { s.Leagues[0].Name = "" }),
		"duplicate league names": with(func(s *BoardSpec) { s.Leagues[2].Name = "bronze" }),
		"negative promote":       with(func(s *BoardSpec) { s.Leagues[0].Promote = -1 }),
		"negative demote":        with(func(s *BoardSpec) { s.Leagues[2].Demote = -1 }),
		"too many leagues": with(func(s *BoardSpec) {
			s.Leagues = nil
			for i := range MaxLeagues + 1 {
				s.Leagues = append(s.Leagues, League{Name: string(rune('a' + i))})
			}
		}),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Board(leagueDefaults()); ErrorCode(err) != EBADINPUT {
				t.Fatalf("got %v, want BAD_USER_INPUT", err)
			}
		})
	}
}

func TestBoardSameRules_ComparesCohorts(t *testing.T) {
	a, _ := leagueSpec().Board(leagueDefaults())
	b, _ := leagueSpec().Board(leagueDefaults())
	if !a.SameRules(b) {
		t.Fatal("identical league boards differ")
	}
	b.Leagues[1].Demote = 4
	if a.SameRules(b) {
		t.Fatal("boards with other leagues have the same rules")
	}
	b, _ = leagueSpec().Board(leagueDefaults())
	b.CohortSize = new(31)
	if a.SameRules(b) {
		t.Fatal("boards with other cohort sizes have the same rules")
	}
}

func TestNextLeague(t *testing.T) {
	b, _ := leagueSpec().Board(leagueDefaults())
	for _, c := range []struct{ league, rank, size, want int }{
		{0, 1, 30, 1}, {0, 10, 30, 1}, {0, 11, 30, 0}, {0, 30, 30, 0}, // bronze: no demotion
		{1, 7, 30, 2}, {1, 8, 30, 1}, {1, 25, 30, 1}, {1, 26, 30, 0}, {1, 30, 30, 0},
		{1, 7, 11, 2}, {1, 11, 11, 1}, // 11 < 7+5: only the top 7 move
		{1, 12, 12, 0}, {1, 8, 12, 0}, {1, 7, 12, 2},
		{2, 1, 30, 2}, {2, 26, 30, 1}, {2, 25, 30, 2}, // gold: no promotion
		{1, 0, 30, 1}, // not ranked: stays
	} {
		if got := b.NextLeague(c.league, c.rank, c.size); got != c.want {
			t.Errorf("NextLeague(%d, rank %d of %d) = %d, want %d", c.league, c.rank, c.size, got, c.want)
		}
	}
}

func TestCohortID_RoundTrip(t *testing.T) {
	for _, c := range []struct{ league, n int }{{0, 1}, {2, 12}, {MaxLeagues - 1, 99999}} {
		l, n, ok := ParseCohortID(CohortID(c.league, c.n))
		if !ok || l != c.league || n != c.n {
			t.Errorf("ParseCohortID(CohortID(%d, %d)) = %d, %d, %v", c.league, c.n, l, n, ok)
		}
	}
	for _, bad := range []string{"", "1", "0-1", "1-0", "01-2", "1-02", "a-b", "1-2-3", "21-1", " 1-2", "1-2 ", "+1-2"} {
		if _, _, ok := ParseCohortID(bad); ok {
			t.Errorf("ParseCohortID(%q) is ok", bad)
		}
	}
}
