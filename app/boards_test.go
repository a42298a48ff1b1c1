package app

import "testing"

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
