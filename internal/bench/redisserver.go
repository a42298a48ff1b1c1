package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisServer is a redis-server the benchmark started for itself on
// 127.0.0.1, without persistence.
type RedisServer struct {
	Addr    string
	Version string
	cmd     *exec.Cmd
	exited  chan error
}

// StartRedis starts Debian's redis-server on a free port of 127.0.0.1 with
// its files in dir, installing it with apt-get first when it is missing.
func StartRedis(ctx context.Context, dir string, logger *slog.Logger) (*RedisServer, error) {
	path, err := ensureRedis(ctx, logger)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	// redis-server enters --dir before it opens --logfile.
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("redis folder: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("redis folder: %w", err)
	}
	s := &RedisServer{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), exited: make(chan error, 1)}
	s.cmd = exec.Command(path, "--bind", "127.0.0.1", "--port", strconv.Itoa(port),
		"--save", "", "--appendonly", "no", "--daemonize", "no",
		"--dir", dir, "--logfile", filepath.Join(dir, "redis.log"))
	// Should the benchmark die, the server goes with it.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start redis-server: %w", err)
	}
	go func() { s.exited <- s.cmd.Wait() }()
	if err := s.waitReady(ctx); err != nil {
		return nil, errors.Join(err, s.Stop())
	}
	logger.Info("started redis-server", "addr", s.Addr, "version", s.Version)
	return s, nil
}

// waitReady pings the server until it answers, for at most ten seconds,
// and reads its version.
func (s *RedisServer) waitReady(ctx context.Context) error {
	client := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer client.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := client.InfoMap(ctx, "server").Result()
		if err == nil {
			s.Version = info["Server"]["redis_version"]
			return nil
		}
		select {
		case exit := <-s.exited:
			s.exited <- exit
			return fmt.Errorf("redis-server exited at start (%v): see its log", exit)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on %s not answering: %w", s.Addr, err)
		}
	}
}

// PID returns the server's process id.
func (s *RedisServer) PID() int { return s.cmd.Process.Pid }

// Stop stops the server and waits for it to exit.
func (s *RedisServer) Stop() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop redis-server: %w", err)
	}
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		return s.cmd.Process.Kill()
	}
}

// debianRedisPIDFile is where Debian's redis-server service writes its pid.
const debianRedisPIDFile = "/run/redis/redis-server.pid"

// ensureRedis returns the path of redis-server, installing Debian's package
// first when it is missing. Installing may start the package's own service
// (not in containers, whose policy-rc.d forbids it): that one is stopped, so
// that none but the benchmark's server is left running.
func ensureRedis(ctx context.Context, logger *slog.Logger) (string, error) {
	if path, err := exec.LookPath("redis-server"); err == nil {
		return path, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("redis-server not found: install it with `sudo apt-get install redis-server`")
	}
	logger.Info("redis-server not found, installing it with apt-get")
	if err := aptGet(ctx, "install", "-y", "--no-install-recommends", "redis-server"); err != nil {
		// The package lists may be missing or stale (a fresh container has none).
		if err := aptGet(ctx, "update"); err != nil {
			return "", err
		}
		if err := aptGet(ctx, "install", "-y", "--no-install-recommends", "redis-server"); err != nil {
			return "", err
		}
	}
	stopDebianRedis(ctx, logger)
	return exec.LookPath("redis-server")
}

// stopDebianRedis stops the redis-server service the package may have
// started, through systemd where it runs, else by the pid it wrote.
func stopDebianRedis(ctx context.Context, logger *slog.Logger) {
	if _, err := exec.LookPath("systemctl"); err == nil {
		if exec.CommandContext(ctx, "systemctl", "is-active", "--quiet", "redis-server").Run() == nil {
			logger.Info("stopping the redis-server service the package started")
			if err := exec.CommandContext(ctx, "systemctl", "stop", "redis-server").Run(); err != nil {
				logger.Warn("could not stop the redis-server service", "err", err)
			}
		}
	}
	b, err := os.ReadFile(debianRedisPIDFile)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || syscall.Kill(pid, 0) != nil {
		return
	}
	logger.Info("stopping the redis-server the package started", "pid", pid)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		logger.Warn("could not stop the package's redis-server", "pid", pid, "err", err)
	}
}

// aptGet runs apt-get without questions.
func aptGet(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "apt-get", args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return fmt.Errorf("apt-get %s: %w: %s", strings.Join(args, " "), err, strings.Join(lines[max(0, len(lines)-5):], "\n"))
	}
	return nil
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Memory returns the server's used_memory and used_memory_rss, in bytes.
func (s *RedisServer) Memory(ctx context.Context) (used, rss uint64, err error) {
	client := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer client.Close()
	info, err := client.InfoMap(ctx, "memory").Result()
	if err != nil {
		return 0, 0, fmt.Errorf("redis memory: %w", err)
	}
	used, _ = strconv.ParseUint(info["Memory"]["used_memory"], 10, 64)
	rss, _ = strconv.ParseUint(info["Memory"]["used_memory_rss"], 10, 64)
	return used, rss, nil
}
