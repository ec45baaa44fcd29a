// Package redistest starts a real redis-server for tests: on a free
// loopback port, in a temporary folder, persisting nothing.
package redistest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running redis-server.
type Server struct {
	// Addr is its host:port.
	Addr     string
	password string
	cmd      *exec.Cmd
	stopOnce sync.Once
}

// Options of a server.
type Options struct {
	// Password, when set, is required of every client (requirepass).
	Password string
}

// Binary is the server's path, or "" when redis-server is not installed.
func Binary() string {
	p, err := exec.LookPath("redis-server")
	if err != nil {
		return ""
	}
	return p
}

// Start starts a server for t, stopped when t ends; t is skipped when
// redis-server is not installed.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skip("redis-server is not installed (Debian package redis-server; .ci/run installs it): " +
			"the tests of the shared rate store need a real server")
	}
	var last error
	for range 3 {
		s, err := start(t, bin, o)
		if err == nil {
			t.Cleanup(s.Kill)
			return s
		}
		last = err
	}
	t.Fatalf("starting redis-server: %v", last)
	return nil
}

func start(t testing.TB, bin string, o Options) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no", "--logfile", ""}
	if o.Password != "" {
		args = append(args, "--requirepass", o.Password)
	}
	cmd := exec.CommandContext(context.Background(), bin, args...) //nolint:gosec // The installed redis-server, with arguments of the test's.
	cmd.Dir = dir
	logFile, err := os.Create(dir + "/redis.log") //nolint:gosec // In the test's temporary folder.
	if err != nil {
		return nil, err
	}
	defer func() { _ = logFile.Close() }()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), password: o.Password, cmd: cmd}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := s.ping(); err == nil {
			return s, nil
		} else if time.Now().After(deadline) {
			s.Kill()
			out, _ := os.ReadFile(dir + "/redis.log") //nolint:gosec // In the test's temporary folder.
			return nil, fmt.Errorf("redis-server on port %d did not answer: %w; its log: %s", port, err, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ping sends PING (after AUTH with the server's password) over RESP.
func (s *Server) ping() error {
	d := net.Dialer{Timeout: time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	r := bufio.NewReader(conn)
	if s.password != "" {
		if _, err := fmt.Fprintf(conn, "AUTH %s\r\n", s.password); err != nil {
			return err
		}
		if _, err := r.ReadString('\n'); err != nil {
			return err
		}
	}
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("PING answered %q", strings.TrimSpace(line))
	}
	return nil
}

// URL is the server's redis:// URL, with password when given.
func (s *Server) URL(password string) string {
	u := url.URL{Scheme: "redis", Host: s.Addr, Path: "/0"}
	if password != "" {
		u.User = url.UserPassword("", password)
	}
	return u.String()
}

// Kill stops the server at once (SIGKILL) and waits for it.
func (s *Server) Kill() {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
}

// freePort is a loopback port free a moment ago.
func freePort() (int, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("listener address %v is not TCP", l.Addr())
	}
	return addr.Port, nil
}
