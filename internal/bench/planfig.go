package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/provider"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// Figure 7: terraform plan (refresh included) of many resources of each
// type in state, against the floors: minimal framework providers built by
// the bench (floorprovider), one with 3 attributes and one with as many
// attributes as the resource, all but two of them computed with
// UseStateForUnknown.
const (
	planSmall = 200
	planLarge = 1_000
	// targetPlanRatio is the most a plan of planSmall deposit
	// instructions may cost against the floor of its size (withdrawals:
	// targetPlanWithdrawals).
	targetPlanRatio = 1.0
	// targetPlanGrowth is the most a plan of planLarge may cost against
	// one of planSmall.
	targetPlanGrowth = 5.5
	floorAddress     = "registry.terraform.io/bench/floor"
	profileEnv       = "BENCH_PROFILE_DIR"
)

// planTargeted are the types whose plan at planSmall has a target against
// its floor.
var planTargeted = []string{"platform_crypto_withdrawal", "platform_fiat_deposit_instructions"}

// planRun is one contender's plans: total CPU (terraform and the provider
// processes it waited for), the provider processes' CPU, and wall time.
type planRun struct {
	cpu, providerCPU, wall []time.Duration
}

func (p *planRun) add(r *tfRun, u providerUsage) {
	p.cpu = append(p.cpu, r.cpu)
	p.providerCPU = append(p.providerCPU, u.cpu)
	p.wall = append(p.wall, r.elapsed)
}

// floorEnv is what figure 7 adds to the Terraform environment: the floor
// provider and the profiled provider.
type floorEnv struct {
	sizes map[string]int // by resource type: attributes of the type
	// rcProfiled takes the profiled provider.
	rcProfiled string
}

// leafAttributes counts the attributes of a schema block that hold a
// value: nested attributes and blocks count by their own attributes.
func leafAttributes(b *tfprotov6.SchemaBlock) int {
	n := 0
	for _, a := range b.Attributes {
		n += leafAttribute(a)
	}
	for _, nb := range b.BlockTypes {
		n += leafAttributes(nb.Block)
	}
	return n
}

func leafAttribute(a *tfprotov6.SchemaAttribute) int {
	if a.NestedType == nil {
		return 1
	}
	n := 0
	for _, na := range a.NestedType.Attributes {
		n += leafAttribute(na)
	}
	return n
}

// floorName is the floor provider's resource of the size of typ.
func floorName(typ string) string { return strings.TrimPrefix(typ, "platform_") }

// newFloorEnv builds the floor provider (sized after the provider's
// resources) and the profiled provider into the Terraform environment.
func (b *bench) newFloorEnv(ctx context.Context) (*floorEnv, error) {
	srv, err := provider.NewProtocol6Server(provider.New("bench")())()
	if err != nil {
		return nil, err
	}
	sch, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	fe := &floorEnv{sizes: map[string]int{}}
	var sizes []string
	for typ, s := range sch.ResourceSchemas {
		fe.sizes[typ] = leafAttributes(s.Block)
		sizes = append(sizes, fmt.Sprintf("%s=%d", floorName(typ), fe.sizes[typ]))
	}
	slices.Sort(sizes)
	root, err := moduleRoot(ctx)
	if err != nil {
		return nil, err
	}
	t := b.tf
	direct, wrapped, profiled := filepath.Join(t.root, "bin"), filepath.Join(t.root, "bin-wrapped"), filepath.Join(t.root, "bin-profiled")
	if err := os.MkdirAll(profiled, 0o750); err != nil {
		return nil, err
	}
	floorBin := filepath.Join(direct, "terraform-provider-floor")
	for _, build := range [][]string{
		{"build", "-ldflags", "-X main.sizes=" + strings.Join(sizes, ","), "-o", floorBin, "./internal/bench/floorprovider"},
		{"build", "-o", filepath.Join(profiled, providerBinary), "./internal/bench/profiledprovider"},
	} {
		cmd := exec.CommandContext(ctx, "go", build...) //nolint:gosec // Builds this module's programs into our temporary directory.
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(build, " "), err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	script := fmt.Sprintf("#!/bin/sh\nexec %s -child=wrap -wrap-out %s %s \"$@\"\n",
		shellQuote(self), shellQuote(t.rssDir), shellQuote(floorBin))
	if err := os.WriteFile(filepath.Join(wrapped, "terraform-provider-floor"), []byte(script), 0o755); err != nil { //nolint:gosec // An executable wrapper script.
		return nil, err
	}
	fe.rcProfiled = filepath.Join(t.root, "profiled.tfrc")
	return fe, os.WriteFile(fe.rcProfiled, []byte(devOverrides(profiled)), 0o600)
}

// floorConfig is the configuration of n floor_<name> resources.
func floorConfig(name string, n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    floor = { source = %q }
  }
}

resource "floor_%s" "bench" {
  count = %d
  name  = "bench-${count.index}"
}
`, strings.TrimPrefix(floorAddress, "registry.terraform.io/"), name, n)
}

// resourceConfig is the configuration of n resources of typ.
func resourceConfig(ep endpoints, typ string, n int) string {
	return providerBlock(ep) + fmt.Sprintf("\nresource %q \"bench\" {\n  count = %d\n  %s\n}\n", typ, n, registry.PlanFixtures[typ])
}

// keepFirst writes into dst the state file of src with the instances of
// index below n only.
func keepFirst(src, dst string, n int) error {
	b, err := os.ReadFile(filepath.Join(src, "terraform.tfstate")) //nolint:gosec // Our temporary directory.
	if err != nil {
		return err
	}
	var st map[string]json.RawMessage
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	var resources []map[string]json.RawMessage
	if err := json.Unmarshal(st["resources"], &resources); err != nil {
		return err
	}
	for _, r := range resources {
		var instances []json.RawMessage
		if err := json.Unmarshal(r["instances"], &instances); err != nil {
			return err
		}
		kept := instances[:0]
		for _, in := range instances {
			var key struct {
				IndexKey int `json:"index_key"`
			}
			if err := json.Unmarshal(in, &key); err != nil {
				return err
			}
			if key.IndexKey < n {
				kept = append(kept, in)
			}
		}
		if r["instances"], err = json.Marshal(kept); err != nil {
			return err
		}
	}
	if st["resources"], err = json.Marshal(resources); err != nil {
		return err
	}
	out, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dst, "terraform.tfstate"), out, 0o600)
}

// contender is one configuration figure 7 plans.
type contender struct {
	label string
	dirs  map[int]string // by count
	runs  map[int]*planRun
}

// applyContender applies planLarge resources of mainTF(planLarge) and
// derives the state of planSmall of them.
func (b *bench) applyContender(ctx context.Context, label string, mainTF func(n int) string) (*contender, error) {
	c := &contender{label: label, dirs: map[int]string{}, runs: map[int]*planRun{}}
	safe := strings.NewReplacer(" ", "-", ",", "", "(", "", ")", "").Replace(label)
	for _, n := range []int{planSmall, planLarge} {
		dir, err := b.tf.workdir(fmt.Sprintf("plan-%s-%d", safe, n), mainTF(n))
		if err != nil {
			return nil, err
		}
		c.dirs[n], c.runs[n] = dir, &planRun{}
	}
	progress("figure 7: terraform apply of %d %s", planLarge, label)
	if _, err := b.tf.run(ctx, c.dirs[planLarge], true, nil, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"); err != nil {
		return nil, err
	}
	if _, err := b.tf.takeProviderUsage(); err != nil {
		return nil, err
	}
	return c, keepFirst(c.dirs[planLarge], c.dirs[planSmall], planSmall)
}

// plan runs terraform plan of c's n resources once; a plan that is not
// empty is an error.
func (b *bench) plan(ctx context.Context, c *contender, n int) error {
	r, err := b.tf.run(ctx, c.dirs[n], true, nil, "plan", "-input=false", "-no-color", "-refresh=true", "-detailed-exitcode")
	if err != nil {
		return fmt.Errorf("%s: %w", c.label, err)
	}
	u, err := b.tf.takeProviderUsage()
	if err != nil {
		return err
	}
	c.runs[n].add(r, u)
	return nil
}

// figurePlans is figure 7.
func (b *bench) figurePlans(ctx context.Context, types string, reps int) error {
	if b.skippedWithoutTerraform("7", "terraform plan of resources in state against the floors") {
		return nil
	}
	progress("figure 7: building the floor provider and the profiled provider")
	fe, err := b.newFloorEnv(ctx)
	if err != nil {
		return err
	}
	emu, ep, err := startEmulator(emulator.Options{Seed: 1})
	if err == nil {
		emu.AddApprovedFiatAccount(registry.PayeeFiatAccount)
	}
	if err != nil {
		return err
	}
	defer emu.Close()
	small, err := b.applyContender(ctx, "floor_small", func(n int) string { return floorConfig("small", n) })
	if err != nil {
		return err
	}
	for _, typ := range slices.Sorted(func(yield func(string) bool) {
		for t := range registry.PlanFixtures {
			if !yield(t) {
				return
			}
		}
	}) {
		if types != "" && !slices.Contains(strings.Split(types, ","), typ) {
			continue
		}
		if err := b.figurePlansOf(ctx, fe, emu, ep, small, typ, reps); err != nil {
			return fmt.Errorf("%s: %w", typ, err)
		}
	}
	return nil
}

func (b *bench) figurePlansOf(ctx context.Context, fe *floorEnv, emu *emulator.Server, ep endpoints, small *contender, typ string, reps int) error {
	attrs := fe.sizes[typ]
	if attrs == 0 {
		b.add(row{"7", typ, "skipped: the provider does not register it", "", "", ""})
		return nil
	}
	ours, err := b.applyContender(ctx, typ, func(n int) string { return resourceConfig(ep, typ, n) })
	if err != nil {
		return err
	}
	sized, err := b.applyContender(ctx, "floor_"+floorName(typ), func(n int) string { return floorConfig(floorName(typ), n) })
	if err != nil {
		return err
	}
	// The emulator's requests of one plan of planSmall.
	emu.Counters.Reset()
	if err := b.plan(ctx, ours, planSmall); err != nil {
		return err
	}
	requests := emu.Counters.Snapshot()
	ours.runs[planSmall] = &planRun{}
	// The sizes take turns as the contenders do, so that a drift of the
	// machine's speed weighs on the growth from one to the other as
	// little as on the ratios.
	progress("figure 7: %d × terraform plan of %d and of %d %s, floor_%s and floor_small in turn", reps, planSmall, planLarge, typ, floorName(typ))
	for range reps {
		for _, n := range []int{planSmall, planLarge} {
			for _, c := range []*contender{ours, sized, small} {
				if err := b.plan(ctx, c, n); err != nil {
					return err
				}
			}
		}
	}
	profile, err := b.profilePlan(ctx, fe, ours.dirs[planSmall])
	if err != nil {
		return err
	}

	per := func(d time.Duration, n int) string { return fmtDur(d / time.Duration(n)) }
	bound := targetPlanRatio
	if typ == "platform_crypto_withdrawal" {
		bound = targetPlanWithdrawals
	}
	target := func(r float64) string {
		if !slices.Contains(planTargeted, typ) {
			return "info"
		}
		return fmt.Sprintf("≤ %.1f: %s", bound, met(r <= bound))
	}
	if typ == "platform_crypto_withdrawal" {
		oc, sc := median(ours.runs[planSmall].cpu), median(sized.runs[planSmall].cpu)
		r := float64(oc) / float64(sc)
		b.measure(goalPlanWithdrawals, fmt.Sprintf("%.2f× (%s vs %s)", r, fmtDur(oc), fmtDur(sc)), r <= targetPlanWithdrawals)
	}
	if key, ok := map[string]string{
		"platform_fiat_deposit_instructions":  goalRefreshFDI,
		"platform_deposit_address":            goalRefreshDA,
		"platform_crypto_destination_address": goalRefreshCDA,
	}[typ]; ok {
		b.measure(key, requestsPerResource(requests, planSmall), requests.APIRequests <= targetRefreshOf200)
	}
	for _, n := range []int{planSmall, planLarge} {
		o, s, f := ours.runs[n], sized.runs[n], small.runs[n]
		oc, sc, fc := median(o.cpu), median(s.cpu), median(f.cpu)
		ow, sw, fw := median(o.wall), median(s.wall), median(f.wall)
		tgt := func(r float64) string {
			if n != planSmall {
				return "info"
			}
			return target(r)
		}
		b.add(row{"7", fmt.Sprintf("%s, plan of %s in state (refresh included), median of %d: CPU per resource, terraform and provider (provider alone %s) vs the floor of its size (floor_%s: %d attributes, %d with UseStateForUnknown)",
			typ, fmtCount(uint64(n)), len(o.cpu), per(median(o.providerCPU), n), floorName(typ), attrs, attrs-2), //nolint:gosec // A count.
			per(oc, n), per(sc, n), ratio(float64(oc), float64(sc)), tgt(float64(oc) / float64(sc))})
		b.add(row{"7", fmt.Sprintf("%s, plan of %s: wall per resource vs the floor of its size", typ, fmtCount(uint64(n))), //nolint:gosec // A count.
			per(ow, n), per(sw, n), ratio(float64(ow), float64(sw)), tgt(float64(ow) / float64(sw))})
		b.add(row{"7", fmt.Sprintf("%s, plan of %s: CPU and wall per resource vs the 3-attribute floor (floor_small)", typ, fmtCount(uint64(n))), //nolint:gosec // A count.
			per(oc, n) + ", " + per(ow, n), per(fc, n) + ", " + per(fw, n),
			ratio(float64(oc), float64(fc)) + " (CPU), " + ratio(float64(ow), float64(fw)) + " (wall)", "info"})
	}
	g := func(c *contender, pick func(*planRun) []time.Duration) float64 {
		return float64(median(pick(c.runs[planLarge]))) / float64(median(pick(c.runs[planSmall])))
	}
	cpuOf := func(p *planRun) []time.Duration { return p.cpu }
	wallOf := func(p *planRun) []time.Duration { return p.wall }
	gc, gw := g(ours, cpuOf), g(ours, wallOf)
	providerOf := func(p *planRun) []time.Duration { return p.providerCPU }
	b.add(row{"7", fmt.Sprintf("%s: growth from %s to %s resources, CPU and wall (the provider's processes alone: %.2f× CPU; baseline: the floor of its size)",
		typ, fmtCount(planSmall), fmtCount(planLarge), g(ours, providerOf)),
		fmt.Sprintf("%.2f× CPU, %.2f× wall", gc, gw), fmt.Sprintf("%.2f× CPU, %.2f× wall", g(sized, cpuOf), g(sized, wallOf)), "",
		fmt.Sprintf("≤ %.1f: %s", targetPlanGrowth, met(gc <= targetPlanGrowth && gw <= targetPlanGrowth))})
	b.add(row{"7", fmt.Sprintf("%s, plan of %s: API requests per resource", typ, fmtCount(planSmall)),
		requestsPerResource(requests, planSmall), "", "", "info"})
	b.add(row{"7", fmt.Sprintf("%s, plan of %s: the provider's CPU by RPC (profiled provider, one plan)", typ, fmtCount(planSmall)),
		profile.byRPC, "", "", "info"})
	b.planProfiles = append(b.planProfiles, fmt.Sprintf("%s, terraform plan of %s in state: the provider's CPU profile (all its processes)\n\n%s",
		typ, fmtCount(planSmall), profile.text))
	return nil
}

// requestsPerResource is the emulator's requests per resource, by route.
func requestsPerResource(c emulator.CountersSnapshot, n int) string {
	routes := slices.Sorted(func(yield func(string) bool) {
		for k := range c.Requests {
			if !yield(k) {
				return
			}
		}
	})
	byRoute := map[string]int{}
	for _, k := range routes {
		// The route without its last path segment when that is an id.
		method, p, _ := strings.Cut(k, " ")
		if i := strings.LastIndex(p, "/"); i > 0 && strings.ContainsAny(p[i+1:], "0123456789") {
			p = p[:i] + "/{id}"
		}
		byRoute[method+" "+p] += c.Requests[k]
	}
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range byRoute {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, fmt.Sprintf("%d %s", byRoute[k], k))
	}
	return fmt.Sprintf("%.2f (%s; %d tokens)", float64(c.APIRequests)/float64(n), strings.Join(parts, ", "), c.TotalTokens)
}

// planProfile is the profile of one plan by the profiled provider.
type planProfile struct {
	byRPC, text string
}

var tagLine = regexp.MustCompile(`^\s*([0-9.]+(?:ms|s|us|µs|ns|m))\s+\(\s*[0-9.]+%\):\s+(\S+)`)

// profilePlan plans dir once with the profiled provider and splits its
// CPU by RPC.
func (b *bench) profilePlan(ctx context.Context, fe *floorEnv, dir string) (planProfile, error) {
	var p planProfile
	pdir, err := os.MkdirTemp(b.tmp, "plan-profile-")
	if err != nil {
		return p, err
	}
	if _, err := b.tf.runWith(ctx, dir, fe.rcProfiled, []string{profileEnv + "=" + pdir}, nil,
		"plan", "-input=false", "-no-color", "-refresh=true", "-detailed-exitcode"); err != nil {
		return p, err
	}
	files, err := filepath.Glob(filepath.Join(pdir, "cpu-*.pprof"))
	if err != nil {
		return p, err
	}
	if len(files) == 0 {
		return p, errors.New("the profiled provider wrote no profile")
	}
	pprof := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, "go", append(append([]string{"tool", "pprof"}, args...), files...)...).CombinedOutput() //nolint:gosec // go tool pprof on our own profiles.
		if err != nil {
			return "", fmt.Errorf("go tool pprof: %w\n%s", err, out)
		}
		return string(out), nil
	}
	tags, err := pprof("-tags")
	if err != nil {
		return p, err
	}
	var parts []string
	for line := range strings.SplitSeq(tags, "\n") {
		if m := tagLine.FindStringSubmatch(line); m != nil {
			parts = append(parts, m[2]+" "+m[1])
		}
	}
	p.byRPC = strings.Join(parts, ", ")
	var sb bytes.Buffer
	sb.WriteString("By RPC (samples outside an RPC, such as background GC, carry no label):\n" + tags)
	for _, v := range []struct{ title, flag string }{{"by cumulative time", "-cum"}, {"by own time", "-flat"}} {
		out, err := pprof("-top", "-nodecount=25", v.flag)
		if err != nil {
			return p, err
		}
		fmt.Fprintf(&sb, "\nCPU %s (top 25):\n%s", v.title, out)
	}
	p.text = sb.String()
	return p, nil
}
