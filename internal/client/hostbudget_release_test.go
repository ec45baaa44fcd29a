package client

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goCommand is the go command, or the test is skipped.
func goCommand(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	return goBin
}

// releasedOSes are the systems .goreleaser.yml builds the provider for.
func releasedOSes(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*goos:\s*\[([^\]]*)\]`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no goos list in .goreleaser.yml")
	}
	var out []string
	for _, s := range strings.Split(string(m[1]), ",") {
		out = append(out, strings.Trim(strings.TrimSpace(s), `"`))
	}
	return out
}

// TestHostBudgetLocksOnEveryReleasedOS: every system a release is built
// for builds the package with a real lock of the state files (flock, or
// LockFileEx on Windows), never the file that shares nothing.
func TestHostBudgetLocksOnEveryReleasedOS(t *testing.T) {
	goBin := goCommand(t)
	oses := releasedOSes(t)
	if !slices.Contains(oses, "windows") || len(oses) < 4 {
		t.Fatalf("released systems %v", oses)
	}
	want := map[string]string{"windows": "hostbudget_windows.go", "linux": "hostbudget_unix.go",
		"darwin": "hostbudget_unix.go", "freebsd": "hostbudget_unix.go"}
	for _, goos := range oses {
		cmd := exec.CommandContext(t.Context(), goBin, "list", "-f", "{{join .GoFiles \" \"}}", ".") //nolint:gosec // The go command.
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list for %s: %v\n%s", goos, err, out)
		}
		files := strings.Fields(string(out))
		if slices.Contains(files, "hostbudget_nolock.go") || want[goos] == "" || !slices.Contains(files, want[goos]) {
			t.Errorf("%s builds %v: want %s, never hostbudget_nolock.go", goos, files, want[goos])
		}
	}
}

// TestHostBudgetWindowsBuildLocks: the package cross-compiled for
// windows/amd64 locks the state files with LockFileEx: its lockFile calls
// the system's lock (the symbols of the compiled package).
func TestHostBudgetWindowsBuildLocks(t *testing.T) {
	goBin := goCommand(t)
	archive := filepath.Join(t.TempDir(), "client.a")
	build := exec.CommandContext(t.Context(), goBin, "build", "-o", archive, ".") //nolint:gosec // The go command.
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build: %v\n%s", err, out)
	}
	nm := exec.CommandContext(t.Context(), goBin, "tool", "nm", archive) //nolint:gosec // The go command.
	out, err := nm.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool nm: %v\n%s", err, out)
	}
	syms := string(out)
	for _, want := range []string{
		" T github.com/platform/terraform-provider-platform/internal/client.lockFile\n",
		" U golang.org/x/sys/windows.LockFileEx\n",
		" U golang.org/x/sys/windows.UnlockFileEx\n",
	} {
		if !strings.Contains(syms, want) {
			t.Errorf("the Windows build has no %q", strings.TrimSpace(want))
		}
	}
}
