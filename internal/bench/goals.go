package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The targets make bench reports first: each is one figure of the
// provider's performance goals, measured by the figure named (its rows
// in the table below give the detail), with its target and whether this
// run met it.
const (
	goalPlanWithdrawals = "plan-withdrawals"
	goalListPlanRSS     = "list-plan-rss"
	goalListRead        = "list-read"
	goalListRSSEvery    = "list-rss-every"
	goalFDIPlan         = "fdi-plan"
	goalFDIApply        = "fdi-apply"
	goalRefreshFDI      = "refresh-fdi"
	goalRefreshDA       = "refresh-da"
	goalRefreshCDA      = "refresh-cda"
	goalStream          = "stream"
	goalEmptyPlan       = "empty-plan"
	goalCI              = "ci"
)

// Targets of the goals.
const (
	targetPlanWithdrawals = 0.5
	targetListReadRatio   = 1.2
	// targetListRSS bounds the provider's peak RSS reading 100,000 items
	// of any list, in a fresh process (figure 5) and under terraform plan
	// (figure 1).
	targetListRSS      = 100 << 20
	targetFDIPlan      = 0.1
	targetFDIApply     = 1.2
	targetRefreshOf200 = 20
	targetStreamRatio  = 1.2
	targetEmptyPlan    = 100 * time.Millisecond
	targetCI           = 15 * time.Minute
	// targetCIMargin is the least a pass's timeout may be against the
	// pass.
	targetCIMargin = 2.0
)

// goal is one target and what this run measured of it.
type goal struct {
	key, what, target, figure string
	value                     string
	measured, met             bool
}

func goals() []*goal {
	return []*goal{
		{key: goalPlanWithdrawals, figure: "7", target: fmt.Sprintf("≤ %.1f×", targetPlanWithdrawals),
			what: fmt.Sprintf("plan of %d crypto withdrawals in state (refresh included), CPU of terraform and the provider, against a same-size framework floor", planSmall)},
		{key: goalListPlanRSS, figure: "1", target: "≤ " + fmtMiB(targetListRSS),
			what: "provider peak RSS under `terraform plan` of 100,000 fiat accounts"},
		{key: goalListRead, figure: "1", target: fmt.Sprintf("≤ %.1f×", targetListReadRatio),
			what: "read of 100,000 fiat accounts in-process, against a plain net/http pager"},
		{key: goalFDIPlan, figure: "2", target: fmt.Sprintf("≤ %.1f", targetFDIPlan),
			what: fmt.Sprintf("plan of %d fiat deposit instructions in state: API requests per resource", manyResources)},
		{key: goalFDIApply, figure: "2", target: fmt.Sprintf("≤ %.1f", targetFDIApply),
			what: fmt.Sprintf("apply of %d fiat deposit instructions (plan -out, then apply): API requests per resource", manyResources)},
		{key: goalStream, figure: "3", target: fmt.Sprintf("≤ %.1f×", targetStreamRatio),
			what: "stream: connect to first top of book, p50, against a bare gorilla/websocket loop"},
		{key: goalEmptyPlan, figure: "4", target: "≤ +" + fmtDur(targetEmptyPlan),
			what: "empty plan: provider configured against none"},
		{key: goalCI, figure: "CI", target: fmt.Sprintf("≤ %d min, every pass's timeout ≥ %.0f× the pass", int(targetCI.Minutes()), targetCIMargin),
			what: "`.ci/run` on a fresh clone, idle machine (the latest run recorded on this machine)"},
		{key: goalListRSSEvery, figure: "5", target: "≤ " + fmtMiB(targetListRSS) + " each",
			what: "peak RSS of a fresh process reading 100,000 items, every list data source"},
		refreshGoal(goalRefreshFDI, "fiat deposit instructions"),
		refreshGoal(goalRefreshDA, "deposit addresses"),
		refreshGoal(goalRefreshCDA, "destination addresses"),
	}
}

// refreshGoal is the goal key of figure 7: the API requests of a refresh
// of planSmall objects, at most targetRefreshOf200.
func refreshGoal(key, objects string) *goal {
	return &goal{key: key, figure: "7", target: fmt.Sprintf("≤ %d", targetRefreshOf200),
		what: fmt.Sprintf("refresh of %d %s: API requests", planSmall, objects)}
}

// measure records what the run measured of the goal key.
func (b *bench) measure(key, value string, met bool) {
	for _, g := range b.goals {
		if g.key == key {
			g.value, g.measured, g.met = value, true, met
			return
		}
	}
	panic("bench: no goal " + key)
}

// renderGoals prints the targets as Markdown: each goal, what this run
// measured, its target and whether it is met.
func (b *bench) renderGoals() string {
	var sb strings.Builder
	met, measured := 0, 0
	for _, g := range b.goals {
		if g.measured {
			measured++
			if g.met {
				met++
			}
		}
	}
	fmt.Fprintf(&sb, "Targets: %d of %d met", met, len(b.goals))
	if measured < len(b.goals) {
		fmt.Fprintf(&sb, " (%d not measured by this run)", len(b.goals)-measured)
	}
	sb.WriteString(".\n\n| figure | what | now | target | met |\n|---|---|---|---|---|\n")
	for _, g := range b.goals {
		value, verdict := g.value, "not measured"
		switch {
		case g.measured && g.met:
			verdict = "met"
		case g.measured:
			verdict = "MISSED"
		case g.figure == "CI":
			value = "no run recorded: `.ci/run` records its duration at " + ciRecordPath()
		default:
			value = "not run: -figures leaves out figure " + g.figure
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s |\n", g.figure, g.what, value, g.target, verdict)
	}
	return sb.String()
}

// ciRecordEnv names the file .ci/run records its run in, and make bench
// reads (default: ciRecordPath's).
const ciRecordEnv = "PLATFORM_CI_RECORD"

// ciRecordPath is where .ci/run records its latest run on this machine:
// $PLATFORM_CI_RECORD, else terraform-provider-platform/ci-run.json in the
// user's cache folder (as .ci/run computes it: $XDG_CACHE_HOME, else
// ~/.cache).
func ciRecordPath() string {
	if p := os.Getenv(ciRecordEnv); p != "" {
		return p
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "terraform-provider-platform", "ci-run.json")
	}
	return filepath.Join(base, "terraform-provider-platform", "ci-run.json")
}

// ciRecord is what .ci/run writes when it ends.
type ciRecord struct {
	Commit    string      `json:"commit"`
	Started   string      `json:"started"`
	Seconds   int         `json:"seconds"`
	Status    string      `json:"status"`
	Cores     int         `json:"cores"`
	LoadStart string      `json:"load_start"`
	LoadEnd   string      `json:"load_end"`
	Passes    []ciRecPass `json:"passes"`
}

// ciRecPass is one acceptance pass of the run (scripts/accpass.sh).
type ciRecPass struct {
	What           string `json:"what"`
	Seconds        int    `json:"seconds"`
	TimeoutSeconds int    `json:"timeout_seconds"`
	Status         string `json:"status"`
}

// figureCI reads the latest .ci/run recorded on this machine, when there
// is one, and judges it against its target: passed, within targetCI, and
// every acceptance pass's timeout at least targetCIMargin times the pass.
func (b *bench) figureCI() error {
	path := ciRecordPath()
	raw, err := os.ReadFile(path) //nolint:gosec // The record .ci/run writes.
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var r ciRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	took := time.Duration(r.Seconds) * time.Second
	ok := r.Status == "passed" && took <= targetCI
	value := fmt.Sprintf("%d min %d s, %s (commit %.12s, started %s, %d cores, load average %s at the start)",
		r.Seconds/60, r.Seconds%60, r.Status, r.Commit, r.Started, r.Cores, r.LoadStart)
	if len(r.Passes) == 0 {
		ok = false
		value += "; no acceptance pass recorded"
	}
	least, leastWhat := 0.0, ""
	for _, p := range r.Passes {
		if p.Seconds <= 0 {
			continue
		}
		m := float64(p.TimeoutSeconds) / float64(p.Seconds)
		if leastWhat == "" || m < least {
			least, leastWhat = m, fmt.Sprintf("%s: %d s of a %d s timeout", p.What, p.Seconds, p.TimeoutSeconds)
		}
	}
	if leastWhat != "" {
		value += fmt.Sprintf("; the least room: %s (%.1f×)", leastWhat, least)
		ok = ok && least >= targetCIMargin
	}
	b.measure(goalCI, value, ok)
	return nil
}
