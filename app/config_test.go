package app

import (
	"bytes"
	"log/slog"
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

// Every secret the README names can come from the file its _FILE variable
// names.
func TestConfigFromEnv_EverySecretFromAFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"LEADERBOARD_ADMIN_TOKEN", "LEADERBOARD_SERVER_TOKEN", "LEADERBOARD_JWT_SECRET", "LEADERBOARD_WEBHOOK_SECRET"} {
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte("from-file-"+name+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv(name+"_FILE", path)
	}
	cfg, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{"LEADERBOARD_ADMIN_TOKEN": cfg.AdminToken, "LEADERBOARD_SERVER_TOKEN": cfg.ServerToken,
		"LEADERBOARD_JWT_SECRET": cfg.JWTSecret, "LEADERBOARD_WEBHOOK_SECRET": cfg.WebhookSecret} {
		if got != "from-file-"+name {
			t.Errorf("%s = %q", name, got)
		}
	}
}

func TestCheckWebhook_RefusesABadURLNoSecretOrANegativeConcurrency(t *testing.T) {
	const url = "https://rewards.example/hook?apikey=k3y"
	for _, c := range []struct {
		url, secret string
		concurrency int
		err         string
	}{
		{"", "", 0, ""},
		{url, "a-secret-of-some-length", 1, ""},
		{url, "a-secret-of-some-length", 0, ""},
		{url, "", 16, "LEADERBOARD_WEBHOOK_SECRET"},
		{url, "a-secret-of-some-length", -1, "LEADERBOARD_WEBHOOK_CONCURRENCY=-1"},
		{"rewards.example/hook?apikey=k3y", "a-secret-of-some-length", 16, "not an http or https URL"},
		{"http://bad host/?apikey=k3y", "a-secret-of-some-length", 16, "not a URL"},
	} {
		cfg := Config{WebhookURL: c.url, WebhookSecret: c.secret, WebhookConcurrency: c.concurrency}
		err := cfg.checkWebhook()
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q with secret %q: %v, want %q", c.url, c.secret, err, c.err)
		} else if err != nil && (strings.Contains(err.Error(), "k3y") || strings.Contains(err.Error(), "\n")) {
			t.Errorf("%q: the reason is not one line without the URL: %q", c.url, err)
		}
	}
}

func TestShortSecrets_WarnsOfEachShortOneWithoutShowingIt(t *testing.T) {
	cfg := Config{
		AdminToken:    " a-long-enough-admin-token , a ",
		ServerToken:   "sixteen-chars-ok",
		JWTSecret:     "thirty-one-bytes-of-jwt-secret!",
		WebhookSecret: "ééééééééééééééé", // 15 characters, 30 bytes
	}
	got := cfg.shortSecrets()
	want := []string{
		"LEADERBOARD_ADMIN_TOKEN (token 2 of 2) has 1 characters: use at least 16 random ones",
		"LEADERBOARD_JWT_SECRET has 31 bytes: use at least 32 random ones",
		"LEADERBOARD_WEBHOOK_SECRET has 15 characters: use at least 16 random ones",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cfg = Config{AdminToken: "a", JWTSecret: strings.Repeat("j", 32), WebhookSecret: strings.Repeat("w", 16)}
	if got := cfg.shortSecrets(); len(got) != 1 || got[0] != "LEADERBOARD_ADMIN_TOKEN has 1 characters: use at least 16 random ones" {
		t.Errorf("warnings %q", got)
	}
	if got := (&Config{}).shortSecrets(); len(got) != 0 {
		t.Errorf("no secrets: warnings %q", got)
	}
}

// LEADERBOARD_TIMEZONE takes the IANA names of the embedded zone data only,
// whatever the host's zoneinfo folder holds.
func TestConfigLocation_OnlyIANANamesOfTheEmbeddedData(t *testing.T) {
	for _, zone := range []string{"UTC", "Europe/Berlin", "America/New_York"} {
		if loc, err := (&Config{Timezone: zone}).location(); err != nil || loc.String() != zone {
			t.Errorf("%q: %v, %v", zone, loc, err)
		}
	}
	for _, zone := range []string{"localtime", "Factory", "posix/UTC", "right/Europe/Berlin", "Etc/./UTC", "Local", ""} {
		_, err := (&Config{Timezone: zone}).location()
		if err == nil || !strings.Contains(err.Error(), "LEADERBOARD_TIMEZONE") || !strings.Contains(err.Error(), "Europe/Berlin") {
			t.Errorf("%q: %v, want an error naming the setting and an example", zone, err)
		}
	}
}

// --help of every command that takes --database-url shows DATABASE_URL as
// its default with the password replaced.
func TestHelp_HidesTheDatabasePassword(t *testing.T) {
	for url, want := range map[string]string{
		"postgres://app:s3cret-pw@db.internal:5432/leaderboard?sslmode=require": "postgres://app:xxxxx@db.internal:5432/leaderboard?sslmode=require",
		"postgresql://app@db/leaderboard?password=s3cret-pw":                    "postgresql://app@db/leaderboard?password=xxxxx",
		"host=db user=app password=s3cret-pw dbname=leaderboard":                "host=db user=app password=xxxxx dbname=leaderboard",
		"host=db password='s3cret-pw \\' x' dbname=leaderboard":                 "host=db password=xxxxx dbname=leaderboard",
		"postgres://app:s3cret-pw@[::1:5432/leaderboard":                        "",
	} {
		t.Setenv("DATABASE_URL", url)
		root := NewCommand(slog.New(slog.DiscardHandler))
		seen := 0
		for _, cmd := range root.Commands() {
			flag := cmd.Flags().Lookup("database-url")
			if flag == nil {
				continue
			}
			seen++
			var help bytes.Buffer
			cmd.SetOut(&help)
			if err := cmd.Help(); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(help.String(), "s3cret") {
				t.Errorf("%s --help shows the password of %s:\n%s", cmd.Name(), url, help.String())
			}
			if flag.DefValue != want {
				t.Errorf("%s --database-url default %q, want %q", cmd.Name(), flag.DefValue, want)
			}
		}
		if seen < 5 {
			t.Fatalf("only %d commands take --database-url", seen)
		}
	}
}
