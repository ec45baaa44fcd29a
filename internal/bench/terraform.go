package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tfEnv runs the Terraform CLI against a provider binary built for this
// run, through dev_overrides, with no downloads.
type tfEnv struct {
	terraform string
	version   string
	root      string
	// rc is the CLI configuration of the plain provider binary; rcWrapped
	// that of the binary behind the peak-RSS wrapper.
	rc, rcWrapped string
	// rssDir collects the wrapper's reports.
	rssDir string
}

const providerBinary = "terraform-provider-platform"

// errNoTerraform is returned by newTFEnv when terraform is not on PATH.
type errNoTerraform struct{ err error }

func (e errNoTerraform) Error() string { return "terraform not found: " + e.err.Error() }

// newTFEnv finds terraform on PATH and builds the provider into root.
func newTFEnv(ctx context.Context, root string) (*tfEnv, error) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		return nil, errNoTerraform{err}
	}
	t := &tfEnv{terraform: tf, root: root, rssDir: filepath.Join(root, "rss")}
	out, err := exec.CommandContext(ctx, tf, "version").Output() //nolint:gosec // terraform from PATH.
	if err != nil {
		return nil, fmt.Errorf("terraform version: %w", err)
	}
	t.version = strings.TrimPrefix(strings.SplitN(string(out), "\n", 2)[0], "Terraform ")

	direct, wrapped := filepath.Join(root, "bin"), filepath.Join(root, "bin-wrapped")
	for _, d := range []string{direct, wrapped, t.rssDir} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, err
		}
	}
	bin := filepath.Join(direct, providerBinary)
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".") //nolint:gosec // Builds this module into our temporary directory.
	build.Dir, err = moduleRoot(ctx)
	if err != nil {
		return nil, err
	}
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	script := fmt.Sprintf("#!/bin/sh\nexec %s -child=wrap -wrap-out %s %s \"$@\"\n",
		shellQuote(self), shellQuote(t.rssDir), shellQuote(bin))
	if err := os.WriteFile(filepath.Join(wrapped, providerBinary), []byte(script), 0o755); err != nil { //nolint:gosec // An executable wrapper script.
		return nil, err
	}
	t.rc, t.rcWrapped = filepath.Join(root, "direct.tfrc"), filepath.Join(root, "wrapped.tfrc")
	for rc, dir := range map[string]string{t.rc: direct, t.rcWrapped: wrapped} {
		body := devOverrides(dir)
		if err := os.WriteFile(rc, []byte(body), 0o600); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// devOverrides is a CLI configuration that takes the provider and the
// floor provider of figure 7 from dir.
func devOverrides(dir string) string {
	return fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/platform/platform\" = %q\n"+
		"    \"registry.terraform.io/bench/floor\" = %q\n  }\n  direct {}\n}\n", dir, dir)
}

// moduleRoot is the directory of the main module.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("make bench must run inside the module")
	}
	return filepath.Dir(mod), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// workdir creates a configuration directory holding main.tf.
func (t *tfEnv) workdir(name, mainTF string) (string, error) {
	dir := filepath.Join(t.root, "work", name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF), 0o600)
}

// tfRun is one terraform command's outcome.
type tfRun struct {
	elapsed time.Duration
	// cpu is the user and system time of terraform and of the provider
	// processes it waited for.
	cpu    time.Duration
	output string
	code   int
}

// run runs terraform args in dir and times it. wrapped selects the
// provider behind the peak-RSS wrapper. A non-zero exit code is an error
// unless it is listed in okCodes.
func (t *tfEnv) run(ctx context.Context, dir string, wrapped bool, okCodes []int, args ...string) (*tfRun, error) {
	rc := t.rc
	if wrapped {
		rc = t.rcWrapped
	}
	return t.runWith(ctx, dir, rc, nil, okCodes, args...)
}

// runWith runs terraform args in dir with the CLI configuration rc and
// the extra environment env.
func (t *tfEnv) runWith(ctx context.Context, dir, rc string, env []string, okCodes []int, args ...string) (*tfRun, error) {
	cmd := exec.CommandContext(ctx, t.terraform, args...) //nolint:gosec // terraform from PATH with our own arguments.
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := &tfRun{elapsed: time.Since(start), output: out.String()}
	if cmd.ProcessState != nil {
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
		for _, c := range okCodes {
			if c == r.code {
				return r, nil
			}
		}
		return r, fmt.Errorf("terraform %s exited %d:\n%s", strings.Join(args, " "), r.code, tail(r.output, 3000))
	}
	if err != nil {
		return r, fmt.Errorf("terraform %s: %w", strings.Join(args, " "), err)
	}
	return r, nil
}

// cleanEnv is the environment without PLATFORM_* and TF_* settings, so that
// the benchmark's configurations alone decide what runs.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PLATFORM_") || strings.HasPrefix(kv, "TF_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// providerUsage sums up the provider processes the wrapper saw.
type providerUsage struct {
	procs   int
	peakRSS uint64        // bytes, the largest of the processes
	cpu     time.Duration // user + system, all processes together
}

// takeProviderUsage returns the usage reported by wrapped provider
// processes since the last call.
func (t *tfEnv) takeProviderUsage() (providerUsage, error) {
	var u providerUsage
	entries, err := os.ReadDir(t.rssDir)
	if err != nil {
		return u, err
	}
	for _, e := range entries {
		p := filepath.Join(t.rssDir, e.Name())
		b, err := os.ReadFile(p) //nolint:gosec // Our temporary directory.
		if err != nil {
			return u, err
		}
		_ = os.Remove(p)
		var kb uint64
		var cpuUS int64
		if _, err := fmt.Sscan(string(b), &kb, &cpuUS); err != nil {
			continue
		}
		u.procs++
		u.peakRSS = max(u.peakRSS, kb*1024)
		u.cpu += time.Duration(cpuUS) * time.Microsecond
	}
	return u, nil
}

// runWrap runs the provider binary args[0] as a child with this process's
// stdio (Terraform's plugin handshake passes straight through), forwards
// signals, and writes the child's peak RSS (kB) and CPU time (µs) into a
// file in outDir. The
// child is started with vfork, so the figure is the larger of this small
// wrapper's RSS and the provider's.
func runWrap(outDir string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "wrap: no command")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...) //nolint:gosec,noctx // Runs the provider binary built by this program; it must outlive no context.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "wrap:", err)
		return 1
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		name := filepath.Join(outDir, strconv.Itoa(cmd.Process.Pid))
		cpu := syscall.TimevalToNsec(ru.Utime)/1000 + syscall.TimevalToNsec(ru.Stime)/1000
		_ = os.WriteFile(name, fmt.Appendf(nil, "%d %d\n", ru.Maxrss, cpu), 0o600)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}
