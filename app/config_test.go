package app

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestConfigFromEnv_ReadsAndRefusesBadValues(t *testing.T) {
	t.Setenv("LEADERBOARD_CLOSE_GRACE", "5m")
	t.Setenv("LEADERBOARD_AUTO_CLOSE", "false")
	t.Setenv("LEADERBOARD_RATE_LIMIT", "7.5")
	cfg, err := ConfigFromEnv()
	if err != nil || cfg.CloseGrace != 5*time.Minute || cfg.AutoClose || cfg.RateLimit != 7.5 || cfg.SnapshotPlayers != 12_000_000 {
		t.Fatalf("%+v, %v", cfg, err)
	}
	t.Setenv("LEADERBOARD_SNAPSHOT_PLAYERS", "lots")
	t.Setenv("LEADERBOARD_CLOSE_GRACE", "15")
	t.Setenv("LEADERBOARD_AUTO_CLOSE", "nope")
	_, err = ConfigFromEnv()
	for _, name := range []string{"LEADERBOARD_SNAPSHOT_PLAYERS", "LEADERBOARD_CLOSE_GRACE", "LEADERBOARD_AUTO_CLOSE"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("error %v does not name %s", err, name)
		}
	}
}

func TestRateLimits_RefusesABadTrustedProxy(t *testing.T) {
	c := Config{TrustedProxies: "10.0.0.0/8, 192.168.1.7"}
	if _, err := c.rateLimits(); err == nil || !strings.Contains(err.Error(), "192.168.1.7") {
		t.Fatalf("%v", err)
	}
	c.TrustedProxies = "10.0.0.0/8, ::1/128"
	if limits, err := c.rateLimits(); err != nil || len(limits.TrustedProxies) != 2 {
		t.Fatalf("%+v, %v", limits, err)
	}
}

func TestConfigFromEnv_SecretsFromFiles(t *testing.T) {
	path := t.TempDir() + "/admin"
	if err := os.WriteFile(path, []byte("new-token,old-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LEADERBOARD_ADMIN_TOKEN_FILE", path)
	cfg, err := ConfigFromEnv()
	if err != nil || cfg.AdminToken != "new-token,old-token" {
		t.Fatalf("%q, %v", cfg.AdminToken, err)
	}
	t.Setenv("LEADERBOARD_ADMIN_TOKEN", "also-set")
	if _, err := ConfigFromEnv(); err == nil {
		t.Error("a secret set both ways was accepted")
	}
}
