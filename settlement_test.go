package leaderboard

import "testing"

func TestSettlementFailureKind_ShowsOnlyAKnownKind(t *testing.T) {
	for stored, want := range map[string]string{
		(&DeliveryError{Kind: FailureRefused, Detail: `Post "http://10.0.0.7/rewards": dial tcp 10.0.0.7:80: connection refused`}).Error(): "connection refused",
		(&DeliveryError{Kind: FailureHTTP(500), Detail: "webhook http://h/ answered 500"}).Error():                                         "HTTP 500",
		(&DeliveryError{Kind: FailureRedirect(307), Detail: "webhook http://h/ answered 307"}).Error():                                     "redirect 307 not followed",
		(&DeliveryError{Kind: FailureTimeout, Detail: "d"}).Error():                                                                        "timeout",
		// What was recorded before kinds were: the client's error, URL and all.
		`Post "http://rewards.example/hook?apikey=k": dial tcp 10.0.0.7:80: connect: connection refused`: FailureOther,
		"webhook answered 500 Internal Server Error":                                                     FailureOther,
		"HTTP 5000: d":                        FailureOther,
		"HTTP +12: d":                         FailureOther,
		"redirect 302 followed: d":            FailureOther,
		"http://rewards.example/?apikey=k: d": FailureOther,
		"":                                    FailureOther,
	} {
		got := Settlement{LastError: &stored}.FailureKind()
		if got == nil || *got != want {
			t.Errorf("%q: kind %v, want %q", stored, got, want)
		}
	}
	if got := (Settlement{}).FailureKind(); got != nil {
		t.Errorf("no error: kind %q", *got)
	}
}

func TestSettlementAdminDetail_ShowsURLsByTheirHostAlone(t *testing.T) {
	for stored, want := range map[string]string{
		`connection refused: Post "http://127.0.0.1:1/rewards": dial tcp 127.0.0.1:1: connect: connection refused`: `connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused`,
		`Post "https://hooks.chat.example/services/T0/B0/secret?k=v": timeout`:                                     `Post "https://hooks.chat.example/…": timeout`,
		`HTTP 500: webhook https://rewards.example/… answered 500`:                                                 `HTTP 500: webhook https://rewards.example/… answered 500`,
		`HTTP 502: webhook https://rewards.example answered 502`:                                                   `HTTP 502: webhook https://rewards.example answered 502`,
	} {
		s := Settlement{LastError: &stored}
		if got := s.AdminDetail(); got == nil || *got != want {
			t.Errorf("AdminDetail(%q) = %v, want %q", stored, got, want)
		}
	}
	if (Settlement{}).AdminDetail() != nil {
		t.Error("no error: want nil")
	}
}
