// Command bench is `make bench`: it starts the emulator, measures the
// provider against a plain baseline on the same emulator in the same run,
// and prints one table of the figures with each figure's ratio to its
// baseline.
//
// Figures:
//  1. Reading 10,000 and 100,000 fiat accounts: ReadDataSource of
//     platform_fiat_accounts through the provider's protocol server,
//     in-process, against a plain net/http + encoding/json pager; the
//     provider's allocations, peak heap and (in a fresh process) peak RSS;
//     the end-to-end terraform plan of the same read.
//  2. terraform apply (plan -out, then apply of the saved plan) and plan of
//     200 platform_fiat_deposit_instructions with -parallelism=10 against
//     200 sequential GETs: requests per resource, tokens (per command) and
//     new TCP connections at the emulator.
//  3. Stream latency (p50/p95 over 200 runs) of the first market-data read
//     of a provider process, through a new stream.Hub, against a bare
//     gorilla/websocket loop.
//  4. terraform plan of an empty configuration with the provider configured
//     against one without any provider.
//  5. The peak RSS of a fresh process reading 100,000 seeded items of each
//     list data source through the protocol server, against 150 MiB.
//  6. terraform plan of 100 crypto withdrawals under every withdrawal
//     guard: the reads of the address book, transfer limits and tickers at
//     the emulator, against one of each.
//  7. terraform plan (refresh included) of 200 and 1,000 resources of each
//     resource type in state (registry.PlanFixtures), against the floors:
//     minimal framework providers built by the bench (floorprovider), one
//     with 3 attributes and one with as many attributes as the resource,
//     planned in turn with it: CPU (terraform and the provider) and wall
//     per resource, requests per resource, the growth from 200 to 1,000,
//     and the provider's CPU by RPC from a profiled build
//     (profiledprovider), whose profile is printed after the table.
//  8. A payroll at scale against the emulator enforcing the published
//     limits (the published window, the throttle scaled to 30 s, a share
//     of each rate equal to rate_budget): apply of 1,000 crypto withdrawals at
//     -parallelism=30 (429s, wall time against the rate floor
//     1,000 / (20 × budget) plus Terraform's own time for 1,000
//     terraform_data), the plan of 1,000 new withdrawals and of 1,000 in
//     state (requests per withdrawal), and two applies of 500 at once on
//     one host. -payroll-n and -payroll-budget change its size and budget,
//     -payroll-latency the time the emulator takes to answer.
//  9. terraform plan of six data sources on six scopes, run twice back to
//     back at the default rate_budget: the second plan's time against one
//     plan at rate_budget = 1 with a fresh state folder (the budget is one
//     over the service's window, not a fixed spacing).
//
// The list-read measurements run in child processes (this binary re-run
// with -child) so that the emulator's own work and memory stay out of them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// errNotRegistered says a provider type a figure needs does not exist yet.
type errNotRegistered string

func (e errNotRegistered) Error() string { return "the provider has no " + string(e) + " yet" }

const endpointsEnv = "BENCH_ENDPOINTS"

func main() {
	child := flag.String("child", "", "internal: run one child measurement (list, rss-provider, rss-plain, wrap)")
	var lo listChildOptions
	flag.IntVar(&lo.maxReps, "reps", 3, "internal: most timed reads per contender in the list child")
	flag.DurationVar(&lo.budget, "budget", 0, "internal: time budget of the list child's timed reads")
	flag.StringVar(&lo.profileDir, "profile-dir", "", "internal: where the list child writes profiles of its warm-up read")
	wrapOut := flag.String("wrap-out", "", "internal: where the wrap child writes the provider's peak RSS")
	figures := flag.String("figures", "1,2,3,4,5,6,7,8,9", "figures to run, comma-separated")
	var payroll payrollOptions
	flag.IntVar(&payroll.n, "payroll-n", 1000, "figure 8: the withdrawals of the payroll")
	flag.Float64Var(&payroll.budget, "payroll-budget", 0.5, "figure 8: rate_budget, and the emulator's share of each rate")
	flag.DurationVar(&payroll.latency, "payroll-latency", 0, "figure 8: time the emulator takes to answer each API request (a service across a network)")
	planTypes := flag.String("plan-types", "", "figure 7: the resource types to plan, comma-separated (default: all)")
	planReps := flag.Int("plan-reps", 5, "figure 7: plans of each contender at each size")
	readme := flag.String("readme", "", "also write the table into this README's Benchmarks section")
	flag.Parse()

	if *child != "" {
		os.Exit(runChild(*child, lo, *wrapOut, flag.Args()))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
	if err := run(ctx, *figures, *readme, *planTypes, *planReps, payroll); err != nil {
		cancel()
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1) //nolint:gocritic // cancel has run.
	}
}

// runChild runs one child measurement and writes its JSON result to stdout.
func runChild(mode string, lo listChildOptions, wrapOut string, args []string) int {
	if mode == "wrap" {
		return runWrap(wrapOut, args)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	var ep endpoints
	if err := json.Unmarshal([]byte(os.Getenv(endpointsEnv)), &ep); err != nil {
		fmt.Fprintln(os.Stderr, "child: no endpoints:", err)
		return 2
	}
	ep.ClientID, ep.ClientSecret = emulator.DefaultClientID, emulator.DefaultClientSecret
	var (
		res any
		err error
	)
	if mode != "rss-plain" {
		// The provider's children run as the provider process does.
		bypass.TuneRuntime()
	}
	switch mode {
	case "list":
		res, err = runListChild(ctx, ep, lo)
	case "rss-provider", "rss-plain":
		res, err = runRSSChild(ctx, ep, mode == "rss-plain")
	case "rss-list":
		res, err = runListRSSChild(ctx, ep)
	default:
		err = fmt.Errorf("unknown child mode %q", mode)
	}
	if err != nil {
		var nr errNotRegistered
		if errors.As(err, &nr) {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// startChild re-runs this binary as a child measurement and decodes its
// JSON result into out. Exit code 3 means a provider type is missing.
// Peak RSS is reported by the child itself (VmHWM): the rusage of a child
// started with vfork also counts the parent's memory, and the parent here
// holds the emulator.
func startChild(ctx context.Context, ep endpoints, mode string, out any, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	epJSON, err := json.Marshal(ep)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, self, append([]string{"-child=" + mode}, args...)...) //nolint:gosec // Re-runs this program.
	cmd.Env = append(cleanEnv(), endpointsEnv+"="+string(epJSON))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			return errNotRegistered(strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(strings.TrimSpace(stderr.String()), " yet"), "the provider has no ")))
		}
		return fmt.Errorf("child %s: %w\n%s", mode, err, tail(stderr.String(), 3000))
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		return fmt.Errorf("child %s: %w", mode, err)
	}
	return nil
}

// progress reports what the run is doing on stderr.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// payrollOptions are figure 8's size and rate budget.
type payrollOptions struct {
	n       int
	budget  float64
	latency time.Duration
}

func run(ctx context.Context, figures, readme, planTypes string, planReps int, payroll payrollOptions) error {
	start := time.Now()
	m := machineInfo()
	want := map[string]bool{}
	for f := range strings.SplitSeq(figures, ",") {
		want[strings.TrimSpace(f)] = true
	}
	tmp, err := os.MkdirTemp("", "platform-bench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()

	b := &bench{tmp: tmp, goals: goals()}
	if want["1"] || want["2"] || want["4"] || want["6"] || want["7"] || want["8"] || want["9"] {
		progress("building the provider for terraform")
		tf, err := newTFEnv(ctx, tmp)
		var missing errNoTerraform
		switch {
		case errors.As(err, &missing):
			b.tfMissing = missing.Error()
		case err != nil:
			return err
		}
		b.tf = tf
	}
	if b.tf != nil {
		m.terraform = b.tf.version
	}

	if want["1"] {
		for _, n := range []int{10_000, 100_000} {
			if err := b.figureListRead(ctx, n); err != nil {
				return fmt.Errorf("figure 1 (%d accounts): %w", n, err)
			}
		}
	}
	for _, f := range []struct {
		figure string
		run    func(context.Context) error
	}{
		{"2", b.figureManyResources},
		{"3", b.figureStream},
		{"4", b.figureOverhead},
		{"5", b.figureListRSS},
		{"6", b.figureGuards},
		{"7", func(ctx context.Context) error { return b.figurePlans(ctx, planTypes, max(planReps, 1)) }},
		{"8", func(ctx context.Context) error {
			if payroll.n < 2 || payroll.budget <= 0 || payroll.budget > 1 {
				return fmt.Errorf("-payroll-n must be at least 2 and -payroll-budget in (0, 1], got %d and %g", payroll.n, payroll.budget)
			}
			return b.figurePayroll(ctx, payroll)
		}},
		{"9", b.figureScopes},
	} {
		if !want[f.figure] {
			continue
		}
		if err := f.run(ctx); err != nil {
			return fmt.Errorf("figure %s: %w", f.figure, err)
		}
	}
	if err := b.figureCI(); err != nil {
		return fmt.Errorf("the CI figure: %w", err)
	}
	m.elapsed = time.Since(start)

	table := b.render(m)
	fmt.Print(table)
	if b.profile != "" {
		fmt.Print("\n" + b.profile)
	}
	for _, p := range b.planProfiles {
		fmt.Print("\n" + p)
	}
	if readme != "" {
		if err := writeReadme(readme, table); err != nil {
			return err
		}
		progress("wrote the table into %s", readme)
	}
	return nil
}

// machine describes where the run happened.
type machine struct {
	cpu, goVersion, terraform, load string
	cores                           int
	elapsed                         time.Duration
}

func machineInfo() machine {
	m := machine{cpu: "unknown CPU", cores: runtime.NumCPU(), goVersion: runtime.Version(), terraform: "not found", load: "unknown"}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.load = strings.Join(f[:3], " ")
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}
