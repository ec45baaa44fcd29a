package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/client"
)

const fiatAccountsDS = "platform_fiat_accounts"

// listResult is what the list-read child reports to the parent.
type listResult struct {
	Items      int     `json:"items"`
	ProviderNS []int64 `json:"provider_ns"`
	PlainNS    []int64 `json:"plain_ns"`
	// RawNS times the emulator and transport alone (bodies not decoded).
	RawNS []int64 `json:"raw_ns"`
	// Per read (median over the timed reads): bytes and objects allocated.
	ProviderAllocBytes uint64 `json:"provider_alloc_bytes"`
	ProviderAllocs     uint64 `json:"provider_allocs"`
	PlainAllocBytes    uint64 `json:"plain_alloc_bytes"`
	PlainAllocs        uint64 `json:"plain_allocs"`
	// Peak of the heap's object bytes during one read.
	ProviderPeakHeap uint64 `json:"provider_peak_heap"`
	PlainPeakHeap    uint64 `json:"plain_peak_heap"`
	// StateBytes is the size of the msgpack state ReadDataSource returns.
	StateBytes int `json:"state_bytes"`
	// Durations of the warm-up reads (first use, sampled, maybe profiled).
	WarmupProviderNS int64 `json:"warmup_provider_ns"`
	WarmupPlainNS    int64 `json:"warmup_plain_ns"`
	// List requests and tokens seen by the emulator during one read.
	ProviderRequests int `json:"provider_requests"`
	ProviderTokens   int `json:"provider_tokens"`
	PlainRequests    int `json:"plain_requests"`
}

// rssResult is what a peak-RSS child reports.
type rssResult struct {
	Items      int    `json:"items"`
	VmHWMKB    uint64 `json:"vmhwm_kb"`
	StateBytes int    `json:"state_bytes,omitempty"`
}

// listReaders holds the two contenders of figure 1.
type listReaders struct {
	prov  *protoProvider
	plain *plainClient
	ep    endpoints
}

func newListReaders(ctx context.Context, ep endpoints, needPlain bool) (*listReaders, error) {
	prov, err := newProtoProvider(ctx, ep)
	if err != nil {
		return nil, err
	}
	if !prov.hasDataSource(fiatAccountsDS) {
		return nil, errNotRegistered(fiatAccountsDS)
	}
	r := &listReaders{prov: prov, ep: ep}
	if needPlain {
		if r.plain, err = newPlainClient(ctx, ep, client.ScopeReadFiatAccount); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// readProvider reads every fiat account through ReadDataSource and returns
// the state.
func (r *listReaders) readProvider(ctx context.Context) (*tfprotov6.DynamicValue, error) {
	cfg, err := r.prov.dataSourceConfig(fiatAccountsDS, nil)
	if err != nil {
		return nil, err
	}
	return r.prov.readDataSource(ctx, fiatAccountsDS, cfg)
}

func (r *listReaders) readPlain(ctx context.Context) (int, error) {
	items, err := r.plain.listFiatAccounts(ctx)
	return len(items), err
}

// listChildOptions tune the list-read child.
type listChildOptions struct {
	// maxReps bounds the timed reads per contender; budget bounds their
	// total time, as estimated from the warm-up (at least one each).
	maxReps int
	budget  time.Duration
	// profileDir, when set, receives a CPU and an allocation profile of
	// the provider's warm-up read.
	profileDir string
}

// runListChild is the list-read child. A warm-up read of each contender,
// with a heap sampler (and the profiler when asked), checks that both read
// the same accounts; then timed reads alternate between the provider and
// the plain pager, with a GC before each.
func runListChild(ctx context.Context, ep endpoints, o listChildOptions) (*listResult, error) {
	r, err := newListReaders(ctx, ep, true)
	if err != nil {
		return nil, err
	}
	defer r.plain.close()
	res := &listResult{}

	// Warm-up of the provider, with the emulator's counters of that read.
	if err := adminPost(ctx, ep, "/admin/counters/reset"); err != nil {
		return nil, err
	}
	var state *tfprotov6.DynamicValue
	stopProfile, err := startProfile(o.profileDir)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res.ProviderPeakHeap, err = peakHeap(func() error { state, err = r.readProvider(ctx); return err })
	warmProvider := time.Since(start)
	if perr := stopProfile(); err == nil {
		err = perr
	}
	if err != nil {
		return nil, err
	}
	snap, err := adminCounters(ctx, ep)
	if err != nil {
		return nil, err
	}
	res.ProviderRequests = snap.Requests["GET /v2/transfer/fiat-accounts"]
	res.ProviderTokens = snap.TotalTokens
	res.StateBytes = len(state.MsgPack)
	n, err := r.prov.listLength(fiatAccountsDS, state, "items")
	if err != nil {
		return nil, err
	}
	state = nil

	// Warm-up of the plain pager.
	if err := adminPost(ctx, ep, "/admin/counters/reset"); err != nil {
		return nil, err
	}
	var m int
	start = time.Now()
	res.PlainPeakHeap, err = peakHeap(func() error { m, err = r.readPlain(ctx); return err })
	warmPlain := time.Since(start)
	if err != nil {
		return nil, err
	}
	if snap, err = adminCounters(ctx, ep); err != nil {
		return nil, err
	}
	res.PlainRequests = snap.Requests["GET /v2/transfer/fiat-accounts"]
	if n != m {
		return nil, fmt.Errorf("the provider read %d fiat accounts, the plain pager %d", n, m)
	}
	res.Items = n
	res.WarmupProviderNS, res.WarmupPlainNS = int64(warmProvider), int64(warmPlain)

	reps := o.maxReps
	if per := warmProvider + warmPlain; per > 0 && o.budget > 0 {
		reps = max(1, min(reps, int(o.budget/per)))
	}
	var provBytes, provObjs, plainBytes, plainObjs []uint64
	measure := func(f func() error) (time.Duration, uint64, uint64, error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		err := f()
		d := time.Since(start)
		runtime.ReadMemStats(&after)
		return d, after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs, err
	}
	for range reps {
		d, b, o, err := measure(func() error { _, err := r.readProvider(ctx); return err })
		if err != nil {
			return nil, err
		}
		res.ProviderNS = append(res.ProviderNS, int64(d))
		provBytes, provObjs = append(provBytes, b), append(provObjs, o)
		d, b, o, err = measure(func() error { _, err := r.readPlain(ctx); return err })
		if err != nil {
			return nil, err
		}
		res.PlainNS = append(res.PlainNS, int64(d))
		plainBytes, plainObjs = append(plainBytes, b), append(plainObjs, o)
		d, _, _, err = measure(func() error { _, err := r.plain.listRaw(ctx); return err })
		if err != nil {
			return nil, err
		}
		res.RawNS = append(res.RawNS, int64(d))
	}
	res.ProviderAllocBytes, res.ProviderAllocs = medianU(provBytes), medianU(provObjs)
	res.PlainAllocBytes, res.PlainAllocs = medianU(plainBytes), medianU(plainObjs)
	return res, nil
}

// startProfile starts a CPU profile into dir/cpu.pprof (when dir is set);
// the returned function stops it and writes dir/allocs.pprof.
func startProfile(dir string) (func() error, error) {
	if dir == "" {
		return func() error { return nil }, nil
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof")) //nolint:gosec // The parent's temporary directory.
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		_ = cpu.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := cpu.Close(); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, "allocs.pprof")) //nolint:gosec // The parent's temporary directory.
		if err != nil {
			return err
		}
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	}, nil
}

// peakHeap runs f after a GC and returns the largest heap object bytes seen
// while it ran, sampled every millisecond.
func peakHeap(f func() error) (uint64, error) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak {
			peak = v
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	}()
	err := f()
	close(done)
	wg.Wait()
	read()
	return peak, err
}

// runRSSChild does one read (the provider's, or the plain pager's when
// plain is set) in a fresh process and reports the peak resident set.
func runRSSChild(ctx context.Context, ep endpoints, plain bool) (*rssResult, error) {
	r, err := newListReaders(ctx, ep, plain)
	if err != nil {
		return nil, err
	}
	res := &rssResult{}
	if plain {
		defer r.plain.close()
		res.Items, err = r.readPlain(ctx)
	} else {
		_, err = r.readProvider(ctx)
		res.Items = -1
	}
	if err != nil {
		return nil, err
	}
	res.VmHWMKB, err = vmHWM()
	return res, err
}

// vmHWM reads the peak resident set size of this process in kB.
func vmHWM() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// countersSnapshot mirrors the emulator's GET /admin/counters body.
type countersSnapshot struct {
	Requests    map[string]int `json:"requests"`
	APIRequests int            `json:"api_requests"`
	Tokens      map[string]int `json:"tokens"`
	TotalTokens int            `json:"total_tokens"`
	Connections int            `json:"connections"`
}

func adminPost(ctx context.Context, ep endpoints, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.AuthURL+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s", path, resp.Status)
	}
	return nil
}

func adminCounters(ctx context.Context, ep endpoints) (*countersSnapshot, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep.AuthURL+"/admin/counters", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /admin/counters: %s", resp.Status)
	}
	var s countersSnapshot
	return &s, json.NewDecoder(resp.Body).Decode(&s)
}
