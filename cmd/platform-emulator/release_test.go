package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// releaseConfig is the part of .goreleaser.yml these tests read.
type releaseConfig struct {
	Builds []struct {
		ID     string              `yaml:"id"`
		Main   string              `yaml:"main"`
		Goos   []string            `yaml:"goos"`
		Goarch []string            `yaml:"goarch"`
		Ignore []map[string]string `yaml:"ignore"`
		Binary string              `yaml:"binary"`
		Flags  []string            `yaml:"flags"`
		Env    []string            `yaml:"env"`
	} `yaml:"builds"`
	Archives []struct {
		ID           string   `yaml:"id"`
		IDs          []string `yaml:"ids"`
		NameTemplate string   `yaml:"name_template"`
	} `yaml:"archives"`
	Checksum struct {
		IDs          []string `yaml:"ids"`
		NameTemplate string   `yaml:"name_template"`
	} `yaml:"checksum"`
	Signs []struct {
		Artifacts string `yaml:"artifacts"`
	} `yaml:"signs"`
}

func readReleaseConfig(t *testing.T) releaseConfig {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var c releaseConfig
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// targets are the os/arch pairs of a build: goos × goarch minus ignore.
func targets(goos, goarch []string, ignore []map[string]string) []string {
	var out []string
	for _, o := range goos {
		for _, a := range goarch {
			skip := false
			for _, ig := range ignore {
				if ig["goos"] == o && ig["goarch"] == a {
					skip = true
				}
			}
			if !skip {
				out = append(out, o+"/"+a)
			}
		}
	}
	return out
}

// The release builds the emulator for the provider's targets, in archives
// of its own, and leaves the provider's artifacts, checksums and signature
// as they were.
func TestReleaseConfig(t *testing.T) {
	c := readReleaseConfig(t)
	if len(c.Builds) != 2 || c.Builds[0].ID != "provider" || c.Builds[1].ID != "emulator" {
		t.Fatalf("builds: want provider and emulator, got %+v", c.Builds)
	}
	p, e := c.Builds[0], c.Builds[1]
	if p.Main != "" || p.Binary != "{{ .ProjectName }}_v{{ .Version }}" {
		t.Errorf("provider build changed: main %q binary %q", p.Main, p.Binary)
	}
	if e.Main != "./cmd/platform-emulator" || e.Binary != "platform-emulator" {
		t.Errorf("emulator build: main %q binary %q", e.Main, e.Binary)
	}
	pt, et := targets(p.Goos, p.Goarch, p.Ignore), targets(e.Goos, e.Goarch, e.Ignore)
	if !reflect.DeepEqual(pt, et) || len(pt) != 14 {
		t.Errorf("targets: provider %v, emulator %v", pt, et)
	}
	if !reflect.DeepEqual(p.Flags, e.Flags) || !reflect.DeepEqual(p.Env, e.Env) {
		t.Errorf("emulator built unlike the provider: flags %v env %v", e.Flags, e.Env)
	}
	want := map[string]struct{ ids, name string }{
		"provider": {"provider", "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"},
		"emulator": {"emulator", "{{ .ProjectName }}-emulator_{{ .Version }}_{{ .Os }}_{{ .Arch }}"},
	}
	if len(c.Archives) != len(want) {
		t.Errorf("%d archives, want %d", len(c.Archives), len(want))
	}
	for _, a := range c.Archives {
		w, ok := want[a.ID]
		if !ok || !reflect.DeepEqual(a.IDs, []string{w.ids}) || a.NameTemplate != w.name {
			t.Errorf("archive %s: ids %v name %q", a.ID, a.IDs, a.NameTemplate)
		}
	}
	if !reflect.DeepEqual(c.Checksum.IDs, []string{"provider"}) || c.Checksum.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS" {
		t.Errorf("checksum: ids %v name %q: SHA256SUMS names the provider's zips and manifest only", c.Checksum.IDs, c.Checksum.NameTemplate)
	}
	if len(c.Signs) != 1 || c.Signs[0].Artifacts != "checksum" {
		t.Errorf("signs: %+v", c.Signs)
	}
}

// Every target of the release matrix builds (goreleaser is not needed).
func TestReleaseTargetsBuild(t *testing.T) {
	// Slow with a cold build cache (the standard library once per target):
	// make release-targets builds every target (EMULATOR_RELEASE_TARGETS=all);
	// make test resolves every target's packages and builds the two of
	// another family than the machine's (quick).
	mode := os.Getenv("EMULATOR_RELEASE_TARGETS")
	if mode == "" {
		t.Skip("set EMULATOR_RELEASE_TARGETS=quick or all (make test, make release-targets) to cross-compile the emulator for the release targets")
	}
	quick := map[string]bool{"windows/amd64": true, "darwin/arm64": true}
	c := readReleaseConfig(t)
	var e = c.Builds[len(c.Builds)-1]
	if e.ID != "emulator" {
		t.Fatalf("last build is %q, want emulator", e.ID)
	}
	// goreleaser skips the pairs Go has no port for (darwin/arm), as here.
	dist, err := exec.CommandContext(t.Context(), "go", "tool", "dist", "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	ports := map[string]bool{}
	for line := range strings.Lines(string(dist)) {
		ports[strings.TrimSpace(line)] = true
	}
	out := t.TempDir()
	start := time.Now()
	built := 0
	for _, target := range targets(e.Goos, e.Goarch, e.Ignore) {
		if !ports[target] {
			t.Logf("%s: no Go port, skipped as goreleaser skips it", target)
			continue
		}
		built++
		goos, goarch, _ := strings.Cut(target, "/")
		args := []string{"build", "-trimpath", "-o", filepath.Join(out, goos+"_"+goarch), "."}
		if mode != "all" && !quick[target] {
			// Every package of the target resolves (build constraints,
			// imports), without compiling.
			args = []string{"list", "-deps", "-e", "-f", "{{with .Error}}{{.}}{{end}}{{with .DepsErrors}}{{.}}{{end}}", "."}
		} else {
			// make release-targets runs go test -v: each build is named
			// as it starts (the first one per target compiles the
			// standard library for it).
			t.Logf("%s: building", target)
		}
		cmd := exec.CommandContext(t.Context(), "go", args...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
		if b, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(b)) != "" {
			t.Errorf("GOOS=%s GOARCH=%s go %s ./cmd/platform-emulator: %v\n%s", goos, goarch, args[0], err, b)
		}
	}
	if built < 13 {
		t.Errorf("built %d targets, want the 13 of the provider's matrix", built)
	}
	t.Logf("built %s for %d targets in %v", e.Main, built, time.Since(start).Round(time.Millisecond))
}

// go install github.com/platform/terraform-provider-platform/cmd/platform-emulator@<version>
// works: the module has no replace or exclude directive (which go install
// refuses), the command embeds and reads no file of the repository, and
// the installed binary runs.
func TestGoInstall(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(mod)) {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "replace" || f[0] == "exclude") {
			t.Errorf("go.mod has %q: go install ...@version refuses a module with it", strings.TrimSpace(line))
		}
	}
	list := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}} {{.EmbedFiles}}{{end}}", ".")
	b, err := list.Output()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) > 1 && f[1] != "[]" {
			t.Errorf("%s embeds files: %s", f[0], line)
		}
	}
	if testing.Short() {
		return
	}
	// The command under its name, and under its former one (cmd/emulator):
	// the same command.
	gobin := t.TempDir()
	install := exec.CommandContext(t.Context(), "go", "install", ".", "../emulator")
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, b)
	}
	for _, name := range []string{"platform-emulator", "emulator"} {
		bin := filepath.Join(gobin, name)
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		help, err := exec.CommandContext(ctx, bin, "-h").CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(help), "Usage: platform-emulator [flags]") || !strings.Contains(string(help), "-log-level") {
			t.Errorf("installed %s -h: %v\n%s", name, err, help)
		}
	}
}
