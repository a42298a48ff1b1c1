// Package secrets reads a secret from the environment or from a file the
// environment names, so that secrets need not appear in flags (which `ps`
// shows) or in the environment of the process itself.
package secrets

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// FileSuffix is appended to a variable's name to name the variable that
// holds the path of a file with its value: LEADERBOARD_JWT_SECRET_FILE for
// LEADERBOARD_JWT_SECRET.
const FileSuffix = "_FILE"

// maxFileSize bounds what a secret file may hold: a secret is short, and a
// path pointing at a large file by mistake must not be read whole.
const maxFileSize = 64 << 10

// FromEnv returns the secret named name: the value of the variable name, or
// the contents of the file that the variable name+FileSuffix names, with one
// trailing newline removed (editors and `echo` add one). It is an error to
// set both, to name a file that cannot be read, or to name an empty one: a
// secret file that is meant to configure a role must not silently disable it.
// With neither set it returns "".
func FromEnv(name string) (string, error) {
	return lookup(os.LookupEnv, name)
}

func lookup(env func(string) (string, bool), name string) (string, error) {
	value, hasValue := env(name)
	path, hasFile := env(name + FileSuffix)
	switch {
	case hasFile && path != "" && hasValue && value != "":
		return "", fmt.Errorf("set %s or %s, not both", name, name+FileSuffix)
	case hasFile && path != "":
		return ReadFile(path)
	}
	return value, nil
}

// ReadFile returns the secret held in the file at path, with one trailing
// newline ("\n" or "\r\n") removed. An empty or oversized file is an error.
func ReadFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("secret file: %w", err)
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return "", fmt.Errorf("secret file %s: %w", path, err)
	}
	if len(content) > maxFileSize {
		return "", fmt.Errorf("secret file %s is larger than %d bytes", path, maxFileSize)
	}
	secret := string(content)
	if s, ok := strings.CutSuffix(secret, "\r\n"); ok {
		secret = s
	} else {
		secret = strings.TrimSuffix(secret, "\n")
	}
	if secret == "" {
		return "", fmt.Errorf("secret file %s is empty", path)
	}
	return secret, nil
}
