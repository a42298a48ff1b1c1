package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLookup(t *testing.T) {
	file := writeFile(t, "from-file\n")
	for label, c := range map[string]struct {
		env     map[string]string
		want    string
		wantErr bool
	}{
		"neither":                {env: nil, want: ""},
		"value":                  {env: map[string]string{"S": "v"}, want: "v"},
		"file":                   {env: map[string]string{"S_FILE": file}, want: "from-file"},
		"empty value, file":      {env: map[string]string{"S": "", "S_FILE": file}, want: "from-file"},
		"value, empty file name": {env: map[string]string{"S": "v", "S_FILE": ""}, want: "v"},
		"both":                   {env: map[string]string{"S": "v", "S_FILE": file}, wantErr: true},
		"missing file":           {env: map[string]string{"S_FILE": filepath.Join(t.TempDir(), "none")}, wantErr: true},
	} {
		env := func(name string) (string, bool) { v, ok := c.env[name]; return v, ok }
		got, err := lookup(env, "S")
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("%s: %q, %v; want %q (error %v)", label, got, err, c.want, c.wantErr)
		}
	}
}

func TestReadFile(t *testing.T) {
	for content, want := range map[string]string{
		"s3cret":           "s3cret",
		"s3cret\n":         "s3cret",
		"s3cret\r\n":       "s3cret",
		"s3cret\n\n":       "s3cret\n",
		"a,b\n":            "a,b",
		" spaced \n":       " spaced ",
		"with\rcarriage\r": "with\rcarriage\r",
	} {
		if got, err := ReadFile(writeFile(t, content)); err != nil || got != want {
			t.Errorf("file %q: %q, %v; want %q", content, got, err, want)
		}
	}
	for label, content := range map[string]string{
		"empty":        "",
		"newline only": "\n",
		"too large":    strings.Repeat("x", maxFileSize+1),
	} {
		if got, err := ReadFile(writeFile(t, content)); err == nil {
			t.Errorf("%s file: %q, want an error", label, got)
		}
	}
	if _, err := ReadFile(t.TempDir()); err == nil {
		t.Error("a directory: want an error")
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("LEADERBOARD_TEST_SECRET_FILE", writeFile(t, "abc\n"))
	if got, err := FromEnv("LEADERBOARD_TEST_SECRET"); err != nil || got != "abc" {
		t.Errorf("FromEnv = %q, %v; want abc", got, err)
	}
}
