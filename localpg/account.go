package localpg

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
)

// account is the OS user the server runs as.
type account struct {
	name     string
	uid, gid uint32
	groups   []uint32
	// switched is true when that user is not the one running this program
	// (which is root): commands run as it and the directories are given to it.
	switched bool
}

// serverAccount returns the current user, or the postgres system user when
// running as root, since PostgreSQL refuses to run as root.
func serverAccount() (account, error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return account{}, fmt.Errorf("local postgres: current user: %w", err)
		}
		return newAccount(u, false)
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return account{}, fmt.Errorf("local postgres: running as root, PostgreSQL must run as the unprivileged user postgres (the Debian package creates it): %w", err)
	}
	return newAccount(u, true)
}

func newAccount(u *user.User, switched bool) (account, error) {
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return account{}, fmt.Errorf("user %s: uid %q: %w", u.Username, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return account{}, fmt.Errorf("user %s: gid %q: %w", u.Username, u.Gid, err)
	}
	a := account{name: u.Username, uid: uint32(uid), gid: uint32(gid), groups: []uint32{uint32(gid)}, switched: switched}
	ids, err := u.GroupIds()
	if err != nil {
		return account{}, fmt.Errorf("user %s: groups: %w", u.Username, err)
	}
	for _, id := range ids {
		if g, err := strconv.ParseUint(id, 10, 32); err == nil && !slices.Contains(a.groups, uint32(g)) {
			a.groups = append(a.groups, uint32(g))
		}
	}
	return a, nil
}

// run runs one of the PostgreSQL programs as the server's account; a
// failure carries the program's output in its message.
func (s *Server) run(ctx context.Context, program string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(s.binDir, program), args...)
	// The server's account may not be allowed into our working directory.
	cmd.Dir = "/"
	if s.account.switched {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{
			Uid: s.account.uid, Gid: s.account.gid, Groups: s.account.groups,
		}}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %s", program, err, bytes.TrimSpace(out))
	}
	return nil
}

// prepareDirs creates the data and socket directories with mode 0700 for
// the server's account, creates the log file for it, and checks that the
// account can reach them.
func (s *Server) prepareDirs() error {
	for _, dir := range []string{s.dataDir, s.socketDir} {
		if err := s.account.mkdir(dir); err != nil {
			return err
		}
		if err := s.account.checkReachable(dir, s.setting); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(s.logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("local postgres log: %w", err)
	}
	defer f.Close()
	if s.account.switched {
		if err := f.Chown(int(s.account.uid), int(s.account.gid)); err != nil {
			return fmt.Errorf("local postgres log: %w", err)
		}
	}
	return nil
}

// mkdir creates dir, or takes it as it is, as a real directory of mode 0700
// owned by the account. It refuses a symbolic link or a directory someone
// else owns, since the socket directory may lie in the shared /tmp.
func (a account) mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("local postgres: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("local postgres: %w", err)
	}
	owner := fi.Sys().(*syscall.Stat_t).Uid
	if !fi.IsDir() || (owner != a.uid && int(owner) != os.Geteuid()) {
		return fmt.Errorf("local postgres: %s is not a directory owned by %s", dir, a.name)
	}
	// PostgreSQL insists on 0700 (or 0750) for its data directory; MkdirAll
	// applies the umask and leaves an existing directory's mode alone.
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("local postgres: %w", err)
	}
	if a.switched {
		if err := os.Chown(dir, int(a.uid), int(a.gid)); err != nil {
			return fmt.Errorf("local postgres: %w", err)
		}
	}
	return nil
}

// checkReachable reports, when the server runs as another user, the first
// directory above path that this user may not enter (from the mode bits; ACLs
// are not consulted). The usual one is /root, which is 0700 on Debian. The
// error names path's folder, the user, and setting (what chooses the folder)
// when given, and suggests folders the user can reach.
func (a account) checkReachable(path, setting string) error {
	if !a.switched {
		return nil
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("local postgres: %w", err)
		}
		if !a.canEnter(fi) {
			move := "choose a folder"
			if setting != "" {
				move = "set " + setting + " to a folder"
			}
			return fmt.Errorf("local postgres: PostgreSQL runs as the user %s, which may not enter %s (mode %#o), so it cannot use the folder %s: %s the user %s can reach, such as /var/lib/leaderboard or /tmp/leaderboard, or let it through with chmod o+x %s",
				a.name, dir, fi.Mode().Perm(), filepath.Dir(path), move, a.name, dir)
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}

// canEnter reports whether the account has search permission on a directory.
func (a account) canEnter(fi os.FileInfo) bool {
	st := fi.Sys().(*syscall.Stat_t)
	perm := fi.Mode().Perm()
	switch {
	case st.Uid == a.uid:
		return perm&0o100 != 0
	case slices.Contains(a.groups, st.Gid):
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

// maxSocketPath is the longest unix socket path that fits sockaddr_un's
// sun_path with its terminating NUL: 107 bytes on Linux, 103 on macOS and
// the BSDs; the smaller one fits everywhere.
const maxSocketPath = 103

// socketDir returns the directory for the server's socket: dir/run, or when
// the socket path there would be too long for the kernel (a deep working
// directory), a directory in the system temporary directory named after a
// hash of the data directory, so that each cluster keeps its own.
func socketDir(dir, dataDir string, port int) string {
	local := filepath.Join(dir, "run")
	if len(socketPath(local, port)) <= maxSocketPath {
		return local
	}
	sum := sha256.Sum256([]byte(dataDir))
	return filepath.Join(os.TempDir(), "leaderboard-pg-"+hex.EncodeToString(sum[:6]))
}

// socketPath returns the path of the socket PostgreSQL creates in dir.
func socketPath(dir string, port int) string {
	return filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(port))
}
