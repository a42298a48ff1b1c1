package leaderboard

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"
)

// MainBoard is the id of the monthly event board that exists from the first
// migration. Every request that names no board is about it.
const MainBoard = "main"

// MainMonth returns the month period key names when b is main, whose
// periods are its months; ok is false on every other board. EBADINPUT when
// key is not a month. It is where the reads of a period pick main's month
// code: the store and the closed periods in memory.
func MainMonth(b *Board, key string) (m Month, ok bool, err error) {
	if b.ID != MainBoard {
		return Month{}, false, nil
	}
	m, err = ParseMainKey(key)
	return m, true, err
}

// ParseMainKey returns the month that key, a period of main, names.
// EBADINPUT when key is not a month.
func ParseMainKey(key string) (Month, error) {
	m, err := ParseMonth(key)
	if err != nil {
		return Month{}, Errorf(EBADINPUT, "period %q is not a key of board main (MONTH periods are YYYY-MM)", key)
	}
	return m, nil
}

// Limits of a board's rules.
const (
	MaxBoardIDLen   = 64          // longest board id
	MaxBoardNameLen = 128         // longest board name, in characters
	MaxTiers        = 20          // most reward tiers of a board
	MaxTierNameLen  = 64          // longest tier name, in characters
	MaxCloseGrace   = 7 * 24 * 60 // longest close grace, in minutes (a week)
	MaxBoards       = 500         // most boards in one boards() answer
)

// Reset says how a board's periods follow each other.
type Reset string

// The resets of a board.
const (
	ResetNone   Reset = "NONE"   // one period "all", closed only at the board's end
	ResetDay    Reset = "DAY"    // a period per calendar day
	ResetWeek   Reset = "WEEK"   // a period per ISO week, Monday to Monday
	ResetMonth  Reset = "MONTH"  // a period per calendar month
	ResetSeason Reset = "SEASON" // periods made by createSeason
)

// SortOrder says which end of the score range ranks first.
type SortOrder string

// The orders of a board.
const (
	OrderDesc SortOrder = "DESC" // higher totals first
	OrderAsc  SortOrder = "ASC"  // lower totals first (lap times)
)

// TieBreak says how equal totals are ordered before who reached them first.
type TieBreak string

// The tie-breaks of a board.
const (
	TieBreakNone         TieBreak = "NONE"
	TieBreakSubscoreDesc TieBreak = "SUBSCORE_DESC" // the higher subscore first
	TieBreakSubscoreAsc  TieBreak = "SUBSCORE_ASC"  // the lower subscore first
)

// ScoreFormat says how clients show a board's scores; it has no effect on
// ranking, and the export keeps the plain number.
type ScoreFormat string

// The score formats of a board.
const (
	ScoreNumber     ScoreFormat = "NUMBER"      // a plain integer
	ScoreDurationMS ScoreFormat = "DURATION_MS" // milliseconds, shown as m:ss.mmm
)

// BoardStatus is where a board is in its life.
type BoardStatus string

// The states of a board.
const (
	BoardNotStarted BoardStatus = "NOT_STARTED" // before its startsAt
	BoardRunning    BoardStatus = "RUNNING"
	BoardEnded      BoardStatus = "ENDED" // its last period closed
)

// Tier is a reward tier: a final standing gets the first tier of its board
// whose TopPercent is at least 100 * rank / participants.
type Tier struct {
	Name       string
	TopPercent float64
}

// Board is one leaderboard with its rules. The rules never change after the
// board is created; only EndsAt may be brought forward by endBoard.
type Board struct {
	ID       string
	Name     string
	Reset    Reset
	Order    SortOrder
	MinScore int
	MaxScore int
	TieBreak TieBreak
	// TimeZone is the IANA name of the board's time zone, as stored.
	TimeZone string
	// ScoreFormat is how clients show the board's scores.
	ScoreFormat ScoreFormat
	// Location is the board's time zone: its periods follow its calendar.
	// It is nil when TimeZone is not a name LoadTimeZone accepts, which
	// only a board stored before the service checked names against its
	// embedded zone data may have: see ZoneError.
	Location *time.Location
	// CloseGrace is how long after a period's end its events are still taken.
	CloseGrace time.Duration
	StartsAt   time.Time
	EndsAt     *time.Time // no period starts at or after it; nil: the board runs on
	// RetainPeriods is how many closed periods are kept; nil keeps them all.
	RetainPeriods *int
	Tiers         []Tier
	// CohortSize is the most players of a cohort; nil: the board has no
	// cohorts. Leagues are its cohorts' leagues, the lowest first; empty
	// for cohorts without leagues.
	CohortSize *int
	Leagues    []League
	CreatedAt  time.Time
}

// Status returns the board's state at now; lastClosed says whether the
// period that holds its end is closed (ENDED needs it).
func (b *Board) Status(now time.Time, lastClosed bool) BoardStatus {
	switch {
	case now.Before(b.StartsAt):
		return BoardNotStarted
	case b.EndsAt != nil && !now.Before(*b.EndsAt) && lastClosed:
		return BoardEnded
	}
	return BoardRunning
}

// SameRules reports whether o has b's rules, as an identical createBoard
// request would give: its CreatedAt is not compared.
func (b *Board) SameRules(o *Board) bool {
	sameTime := func(x, y *time.Time) bool {
		return (x == nil) == (y == nil) && (x == nil || x.Equal(*y))
	}
	sameInt := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return b.ID == o.ID && b.Name == o.Name && b.Reset == o.Reset && b.Order == o.Order &&
		b.MinScore == o.MinScore && b.MaxScore == o.MaxScore && b.TieBreak == o.TieBreak &&
		b.ScoreFormat == o.ScoreFormat &&
		b.TimeZone == o.TimeZone && b.CloseGrace == o.CloseGrace &&
		b.StartsAt.Equal(o.StartsAt) && sameTime(b.EndsAt, o.EndsAt) &&
		sameInt(b.RetainPeriods, o.RetainPeriods) && slices.Equal(b.Tiers, o.Tiers) &&
		sameInt(b.CohortSize, o.CohortSize) && slices.Equal(b.Leagues, o.Leagues)
}

// ZoneError returns nil when b's time zone is loaded, and otherwise an
// ECONFLICT error naming b and the zone it keeps, which is not one
// LoadTimeZone accepts: the days, weeks and months of a DAY, WEEK or MONTH
// board cannot be worked out without it. Its stored periods, with their
// times, still read and close.
func (b *Board) ZoneError() error {
	if b.Location != nil {
		return nil
	}
	return Errorf(ECONFLICT, "board %s keeps the time zone %q, which is not an IANA time zone name the service knows (%s): "+
		"its %s periods cannot be placed until an operator sets one", b.ID, clip(b.TimeZone), TimeZoneData, b.Reset)
}

// CheckBoardID returns an EBADINPUT error unless id is 1..64 of [a-z0-9_.-],
// not all of them dots: "." and ".." name a folder, not a board, in the
// export's path (/admin/boards/{board}/...), which clients and proxies
// resolve before it is sent.
func CheckBoardID(id string) error {
	if !isKeyText(id, MaxBoardIDLen, false) {
		return Errorf(EBADINPUT, "board id %q must be 1..%d of a-z, 0-9, '_', '.' and '-'", clip(id), MaxBoardIDLen)
	}
	if strings.Trim(id, ".") == "" {
		return Errorf(EBADINPUT, "board id %q is only dots: it needs a letter, digit, '_' or '-'", id)
	}
	return nil
}

// isKeyText reports whether s is 1..maxLen bytes of [a-z0-9_.-], with A-Z too
// when upper is set.
func isKeyText(s string, maxLen int, upper bool) bool {
	if len(s) < 1 || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
			(upper && c >= 'A' && c <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

// clip shortens s for an error message.
func clip(s string) string {
	const most = 80
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// Validate returns an EBADINPUT error naming the first rule of b that is not
// one a board may have.
func (b *Board) Validate() error {
	if err := CheckBoardID(b.ID); err != nil {
		return err
	}
	if err := checkText("name", b.Name, nameText, 1, MaxBoardNameLen); err != nil {
		return err
	}
	switch b.Reset {
	case ResetNone, ResetDay, ResetWeek, ResetMonth, ResetSeason:
	default:
		return Errorf(EBADINPUT, "reset %q is not one of NONE, DAY, WEEK, MONTH, SEASON", b.Reset)
	}
	if b.Order != OrderDesc && b.Order != OrderAsc {
		return Errorf(EBADINPUT, "order %q is not DESC or ASC", b.Order)
	}
	switch b.TieBreak {
	case TieBreakNone, TieBreakSubscoreDesc, TieBreakSubscoreAsc:
	default:
		return Errorf(EBADINPUT, "tiebreak %q is not one of NONE, SUBSCORE_DESC, SUBSCORE_ASC", b.TieBreak)
	}
	if b.ScoreFormat != ScoreNumber && b.ScoreFormat != ScoreDurationMS {
		return Errorf(EBADINPUT, "scoreFormat %q is not NUMBER or DURATION_MS", b.ScoreFormat)
	}
	if b.MinScore > b.MaxScore {
		return Errorf(EBADINPUT, "minScore %d is above maxScore %d", b.MinScore, b.MaxScore)
	}
	if b.Location == nil {
		return Errorf(EBADINPUT, "the board has no time zone")
	}
	if b.CloseGrace < 0 || b.CloseGrace > MaxCloseGrace*time.Minute {
		return Errorf(EBADINPUT, "closeGrace must be 0..%d seconds", MaxCloseGrace*60)
	}
	if b.EndsAt != nil && !b.EndsAt.After(b.StartsAt) {
		return Errorf(EBADINPUT, "endsAt %s is not after startsAt %s",
			b.EndsAt.UTC().Format(time.RFC3339), b.StartsAt.UTC().Format(time.RFC3339))
	}
	if err := b.checkTimes(); err != nil {
		return err
	}
	if b.RetainPeriods != nil && *b.RetainPeriods < 0 {
		return Errorf(EBADINPUT, "retainPeriods must not be negative")
	}
	if err := checkTiers(b.Tiers); err != nil {
		return err
	}
	return b.checkCohorts()
}

// checkTimes returns an EBADINPUT error unless the board's start and end,
// and the spans and close times of its first and last periods, lie within
// MinTime..MaxTime. A SEASON board's seasons are checked as they are made.
func (b *Board) checkTimes() error {
	if !InTime(b.StartsAt) || (b.EndsAt != nil && !InTime(*b.EndsAt)) {
		return Errorf(EBADINPUT, "startsAt and endsAt must lie within %s..%s",
			MinTime.Format(time.RFC3339), MaxTime.Format(time.RFC3339))
	}
	at := []time.Time{b.StartsAt}
	if b.EndsAt != nil {
		at = append(at, b.EndsAt.Add(-time.Nanosecond))
	}
	for _, t := range at {
		if key, span, err := b.PeriodOf(t); err == nil {
			if err := b.CheckSpan(key, span); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTiers returns an EBADINPUT error unless tiers have names and percents
// in 0..100 that grow from the first to the last.
func checkTiers(tiers []Tier) error {
	if len(tiers) > MaxTiers {
		return Errorf(EBADINPUT, "a board has at most %d tiers", MaxTiers)
	}
	for i, t := range tiers {
		if err := checkText("tier name", t.Name, nameText, 1, MaxTierNameLen); err != nil {
			return err
		}
		if math.IsNaN(t.TopPercent) || t.TopPercent <= 0 || t.TopPercent > 100 {
			return Errorf(EBADINPUT, "tier %q: topPercent must be above 0 and at most 100", t.Name)
		}
		if i > 0 && t.TopPercent <= tiers[i-1].TopPercent {
			return Errorf(EBADINPUT, "tiers must go from the best to the worst: %q (%g) after %q (%g)",
				t.Name, t.TopPercent, tiers[i-1].Name, tiers[i-1].TopPercent)
		}
	}
	return nil
}

// TierOf returns the name of the tier of a final rank among participants,
// or nil when no tier holds it.
func (b *Board) TierOf(rank, participants int) *string {
	if participants <= 0 || rank <= 0 {
		return nil
	}
	percent := 100 * float64(rank) / float64(participants)
	for _, t := range b.Tiers {
		if t.TopPercent >= percent {
			return &t.Name
		}
	}
	return nil
}

// BoardCreation is the answer to a createBoard: the board, and whether this
// request created it (false: an identical board already existed).
type BoardCreation struct {
	Board   *Board
	Created bool
}

// BoardService creates and reads boards.
type BoardService interface {
	// CreateBoard creates the board s asks for, or answers the existing
	// board with the same id and rules with Created false (a request without
	// startsAt matches any start); ECONFLICT when that board's rules differ,
	// EBADINPUT for rules a board may not have. Exactly one of any number of
	// concurrent identical calls creates it.
	CreateBoard(ctx context.Context, s BoardSpec) (*BoardCreation, error)
	// Board returns the board, or nil when there is none with that id.
	Board(ctx context.Context, id string) (*Board, error)
	// Boards returns up to first boards ordered by id, after the id after.
	Boards(ctx context.Context, first int, after string) ([]Board, error)
	// EndBoard brings the board's end forward to at (nil: now): no period
	// starts at or after it. ENOTFOUND for an unknown board; EBADINPUT when
	// at is not after its start; an end already earlier stays.
	EndBoard(ctx context.Context, id string, at *time.Time) (*Board, error)
}

// BoardSpec is a createBoard request: the rules it names, nil for those
// that take their defaults.
type BoardSpec struct {
	ID            string
	Name          string
	Reset         Reset
	Order         *SortOrder   // default DESC
	MinScore      *int         // default 0
	MaxScore      *int         // default 10000
	TieBreak      *TieBreak    // default NONE
	ScoreFormat   *ScoreFormat // default NUMBER
	TimeZone      *string      // IANA name; default the service's time zone
	CloseGrace    *int         // seconds; default the service's close grace
	StartsAt      *time.Time   // default now
	EndsAt        *time.Time
	RetainPeriods *int
	Tiers         []Tier
	CohortSize    *int     // no cohorts when nil
	Leagues       []League // the lowest first; they need a CohortSize
}

// BoardDefaults are the service's settings a BoardSpec falls back on; a
// close grace longer than a board may have gives it the longest it may.
type BoardDefaults struct {
	Location   *time.Location
	CloseGrace time.Duration
	Now        time.Time
}

// Board returns the board s asks for, its defaults taken from d, or an
// EBADINPUT error naming the first rule it may not have.
func (s BoardSpec) Board(d BoardDefaults) (*Board, error) {
	b := &Board{ID: s.ID, Name: s.Name, Reset: s.Reset, Order: OrderDesc, MinScore: MinScore, MaxScore: MaxScore,
		TieBreak: TieBreakNone, ScoreFormat: ScoreNumber, TimeZone: d.Location.String(), Location: d.Location,
		CloseGrace: min(d.CloseGrace, MaxCloseGrace*time.Minute), StartsAt: d.Now,
		EndsAt: s.EndsAt, RetainPeriods: s.RetainPeriods, Tiers: s.Tiers, CohortSize: s.CohortSize,
		Leagues: s.Leagues, CreatedAt: d.Now}
	if s.Order != nil {
		b.Order = *s.Order
	}
	if s.MinScore != nil {
		b.MinScore = *s.MinScore
	}
	if s.MaxScore != nil {
		b.MaxScore = *s.MaxScore
	}
	if s.TieBreak != nil {
		b.TieBreak = *s.TieBreak
	}
	if s.ScoreFormat != nil {
		b.ScoreFormat = *s.ScoreFormat
	}
	if s.TimeZone != nil {
		loc, err := LoadTimeZone(*s.TimeZone)
		if err != nil {
			return nil, err
		}
		b.TimeZone, b.Location = *s.TimeZone, loc
	}
	if s.CloseGrace != nil {
		if *s.CloseGrace < 0 || *s.CloseGrace > MaxCloseGrace*60 {
			return nil, Errorf(EBADINPUT, "closeGrace must be 0..%d seconds", MaxCloseGrace*60)
		}
		b.CloseGrace = time.Duration(*s.CloseGrace) * time.Second
	}
	if s.StartsAt != nil {
		b.StartsAt = *s.StartsAt
	}
	// PostgreSQL keeps microseconds: a retry of the same request must
	// compare equal to what was stored.
	b.StartsAt = b.StartsAt.Truncate(time.Microsecond)
	if b.EndsAt != nil {
		b.EndsAt = new(b.EndsAt.Truncate(time.Microsecond))
	}
	if b.Tiers == nil {
		b.Tiers = []Tier{}
	}
	if b.Leagues == nil {
		b.Leagues = []League{}
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// MonthOfPeriod returns the month of b's period key, which starts at
// startsAt: main's key is its month (the start its row keeps may be an hour
// off in a zone that changes its clocks: migration 28); any other board's
// period is in the month it starts in, in the board's zone.
func (b *Board) MonthOfPeriod(key string, startsAt time.Time) Month {
	if b.ID == MainBoard {
		if m, err := ParseMonth(key); err == nil {
			return m
		}
	}
	return MonthOf(startsAt, b.Location)
}
