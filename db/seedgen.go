package db

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gamebackend/leaderboard"
)

// The data of seeds, apart from how it is written: players, names, scores
// and times drawn from one random seed, chunk by chunk. seed.go writes it.

// The score distribution of seeded players, drawn by SeedScore. A share of
// players sits exactly on the participation score, as the players who only
// finish an event's entry task do; the rest follow a lognormal distribution,
// clipped to MaxScore: most players low, a long thin tail towards the top.
// With these parameters about 3.2% of players sit on 100 (the share plus the
// lognormal's own), 13% score under 100, half under 290, 5% over 1,550, 1%
// over 3,000, 0.5% over 3,900 and 0.02% on the cap.
const (
	// SeedParticipationScore is the score that SeedParticipationShare of the
	// players have exactly.
	SeedParticipationScore = 100
	// SeedParticipationShare is the share of players on SeedParticipationScore.
	SeedParticipationShare = 0.03
	// SeedMedianScore is the median of the lognormal part.
	SeedMedianScore = 300
	// SeedScoreSigma is the standard deviation of the natural logarithm of the
	// lognormal part's scores.
	SeedScoreSigma = 1.0
)

// SeedScore draws one player's month total from the seeded distribution: a
// score in leaderboard.MinScore..MaxScore, SeedParticipationScore with
// probability SeedParticipationShare, lognormal otherwise (see the Seed*
// constants). The same rng state gives the same score.
func SeedScore(rng *rand.Rand) int {
	if rng.Float64() < SeedParticipationShare {
		return SeedParticipationScore
	}
	score := math.Exp(math.Log(SeedMedianScore) + SeedScoreSigma*rng.NormFloat64())
	return int(min(score, leaderboard.MaxScore))
}

// SeedScoreIn draws a score in lo..hi from SeedScore's distribution
// stretched over that range: SeedScore itself for main's range, and for a
// wider one as many distinct scores as the range holds, not SeedScore's
// 10,001 spread thin (a time trial's milliseconds tie rarely). It takes the
// same draws from rng as SeedScore.
func SeedScoreIn(rng *rand.Rand, lo, hi int) int {
	if lo == leaderboard.MinScore && hi == leaderboard.MaxScore {
		return SeedScore(rng)
	}
	share := float64(SeedParticipationScore) / leaderboard.MaxScore
	if rng.Float64() >= SeedParticipationShare {
		share = min(math.Exp(math.Log(SeedMedianScore)+SeedScoreSigma*rng.NormFloat64())/leaderboard.MaxScore, 1)
	}
	return lo + int(share*float64(hi-lo))
}

// SeedSubscore draws a tie-break subscore, uniform over 0..999,999 (a
// time in milliseconds of up to about 17 minutes).
func SeedSubscore(rng *rand.Rand) int {
	return rng.IntN(1_000_000)
}

// SeedReachedAt draws the time a seeded player reached their score: a whole
// minute after from, uniform over [from, until), or from itself when until is
// less than a minute later. Whole minutes make exact ties of score and time
// common, as they are among many players.
func SeedReachedAt(rng *rand.Rand, from, until time.Time) time.Time {
	minutes := int64(until.Sub(from) / time.Minute)
	if minutes < 1 {
		return from
	}
	return from.Add(time.Duration(rng.Int64N(minutes)) * time.Minute)
}

// SeedPlayerID returns the id of the i-th seeded player, from 1, such as
// "player-00000042": fixed width, so that the ids of players 1..n sort in
// order and form one range of the players table.
func SeedPlayerID(i int) string {
	return fmt.Sprintf("player-%08d", i)
}

// seedNameParts are combined, with a number, into names like SwiftFalcon482.
var seedNameParts = [2][]string{{
	"Swift", "Silent", "Brave", "Crimson", "Shadow", "Iron", "Lucky", "Wild", "Frost", "Storm",
	"Golden", "Dark", "Mighty", "Rapid", "Clever", "Fierce", "Noble", "Sly", "Mystic", "Cosmic",
	"Electric", "Blazing", "Savage", "Hidden", "Royal", "Lunar", "Solar", "Toxic", "Frozen", "Rogue",
	"Arcane", "Crystal", "Thunder", "Atomic", "Turbo", "Neon", "Pixel", "Hyper", "Jade", "Scarlet",
	"Velvet", "Grim", "Happy", "Sneaky", "Lazy", "Epic", "Salty", "Fuzzy", "Quantum", "Ancient",
}, {
	"Falcon", "Wolf", "Tiger", "Dragon", "Phoenix", "Viper", "Panda", "Ninja", "Knight", "Wizard",
	"Raven", "Fox", "Bear", "Hawk", "Shark", "Cobra", "Lion", "Samurai", "Ranger", "Pirate",
	"Titan", "Golem", "Yeti", "Kraken", "Otter", "Badger", "Lynx", "Mantis", "Hunter", "Rider",
	"Spectre", "Goblin", "Paladin", "Druid", "Bandit", "Comet", "Rocket", "Blade", "Sparrow", "Moose",
	"Gecko", "Owl", "Whale", "Jaguar", "Coyote", "Beetle", "Hornet", "Stallion", "Griffin", "Squid",
}}

// SeedPlayerName draws a display name such as "SwiftFalcon482": 2,500 word
// pairs and a number below 1,000, so names repeat among millions of players,
// as display names do.
func SeedPlayerName(rng *rand.Rand) string {
	first := seedNameParts[0][rng.IntN(len(seedNameParts[0]))]
	second := seedNameParts[1][rng.IntN(len(seedNameParts[1]))]
	return fmt.Sprintf("%s%s%d", first, second, rng.IntN(1000))
}

// seedStream is the second half of the PCG seed, fixed so that RandomSeed
// alone picks the data.
const seedStream = 0x5eed

// subscoreStream is the stream of seeded subscores, beside seedStream.
const subscoreStream = 0x5eed5

// seedRows is one chunk of seeded players, column by column.
type seedRows struct {
	ids, names []string
	scores     []int32
	subscores  []int32 // empty unless the generator draws subscores
	reachedAt  []time.Time
	seqs       []int64
}

// seedGenerator draws the players of a seed in order, one chunk at a time,
// reusing one chunk's memory.
type seedGenerator struct {
	rng *rand.Rand
	// lo and hi bound the scores drawn (SeedScoreIn).
	lo, hi int
	// subscores, when not nil, draws each player's subscore from a stream
	// of its own, so that every other draw is the same with it or without.
	subscores   *rand.Rand
	from, until time.Time
	firstSeq    int64
	rows        seedRows
}

// chunk returns the n players after the first done ones. Every player draws
// its name, score and time in that order, so the data depends on the random
// seed alone, not on the chunk size.
func (g *seedGenerator) chunk(done, n int) *seedRows {
	r := &g.rows
	r.ids, r.names, r.scores, r.reachedAt, r.seqs = r.ids[:0], r.names[:0], r.scores[:0], r.reachedAt[:0], r.seqs[:0]
	r.subscores = r.subscores[:0]
	lo, hi := g.lo, g.hi
	for i := done; i < done+n; i++ {
		r.ids = append(r.ids, SeedPlayerID(i+1))
		r.names = append(r.names, SeedPlayerName(g.rng))
		r.scores = append(r.scores, int32(SeedScoreIn(g.rng, lo, hi)))
		if g.subscores != nil {
			r.subscores = append(r.subscores, int32(SeedSubscore(g.subscores)))
		}
		r.reachedAt = append(r.reachedAt, SeedReachedAt(g.rng, g.from, g.until))
		r.seqs = append(r.seqs, g.firstSeq+int64(i))
	}
	return r
}
