package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/provider"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// Figure 5: the peak RSS of a fresh process reading 100,000 seeded items
// (fewer for a list answered in one page, see registry.ListFixture) of
// each list data source the provider registers through the provider's
// protocol server, each seeded and read with its fixture
// (registry.ListFixtures).

// listRSSItems is the number of seeded items of each list in figure 5.
const listRSSItems = 100_000

// listDataSources are the list data sources of figure 5: every one the
// provider registers (picked by its schema), in name order.
func listDataSources(ctx context.Context) []string {
	return registry.ListDataSources(registry.Types(ctx, provider.New("bench")()))
}

// listFixture is the fixture figure 5 reads the list data source typ with.
func listFixture(typ string) (registry.ListFixture, error) {
	f, ok := registry.ListFixtures[typ]
	if !ok {
		return f, fmt.Errorf("figure 5: the list data source %s has no fixture in registry.ListFixtures (internal/registry/fixtures.go)", typ)
	}
	return f, nil
}

// rssListDS is the data source the rss-list child reads.
var rssListDS = flag.String("ds", "", "internal: the list data source the rss-list child reads")

// runListRSSChild reads every item of the data source *rssListDS once and
// reports the number of items and the peak resident set.
func runListRSSChild(ctx context.Context, ep endpoints) (*rssResult, error) {
	prov, err := newProtoProvider(ctx, ep)
	if err != nil {
		return nil, err
	}
	typ := *rssListDS
	if !prov.hasDataSource(typ) {
		return nil, errNotRegistered(typ)
	}
	fixture, err := listFixture(typ)
	if err != nil {
		return nil, err
	}
	cfg, err := prov.dataSourceConfig(typ, fixture.Args)
	if err != nil {
		return nil, err
	}
	state, err := prov.readDataSource(ctx, typ, cfg)
	if err != nil {
		return nil, err
	}
	// The peak of the read, before the state is decoded here to count its
	// items.
	hwm, err := vmHWM()
	if err != nil {
		return nil, err
	}
	n, err := prov.listLength(typ, state, "items")
	return &rssResult{Items: n, VmHWMKB: hwm, StateBytes: len(state.MsgPack)}, err
}

// figureListRSS is figure 5.
func (b *bench) figureListRSS(ctx context.Context) error {
	lists := listDataSources(ctx)
	opts := emulator.Options{Seed: 1}
	for _, typ := range lists {
		fixture, err := listFixture(typ)
		if err != nil {
			return err
		}
		n := listRSSItems
		if fixture.OnePage > 0 {
			n = min(n, fixture.OnePage)
		}
		fixture.Seed(&opts, n)
	}
	progress("figure 5: seeding %d items of each list", listRSSItems)
	emu, ep, err := startEmulator(opts)
	if err != nil {
		return err
	}
	defer emu.Close()
	var largest uint64
	largestOf, allMet := "", true
	for _, typ := range lists {
		progress("figure 5: peak RSS of a fresh process reading %s", typ)
		var res rssResult
		if err := startChild(ctx, ep, "rss-list", &res, "-ds="+typ); err != nil {
			return fmt.Errorf("%s: %w", typ, err)
		}
		p := res.VmHWMKB * 1024
		b.add(row{"5", fmt.Sprintf("%s, %s items listed (state: %s of msgpack): peak RSS of a fresh process doing one read (protocol server in-process)",
			typ, fmtCount(uint64(res.Items)), fmtMB(uint64(res.StateBytes))), //nolint:gosec // A count and a size.
			fmtMiB(p), "", "", fmt.Sprintf("≤ %s: %s", fmtMiB(targetListRSS), met(p <= targetListRSS))})
		allMet = allMet && p <= targetListRSS
		if p > largest {
			largest, largestOf = p, fmt.Sprintf("%s (%s items)", typ, fmtCount(uint64(res.Items))) //nolint:gosec // A count.
		}
	}
	if largestOf != "" {
		b.measure(goalListRSSEvery, fmt.Sprintf("largest %s: %s, of %d lists", fmtMiB(largest), largestOf, len(lists)), allMet)
	}
	return nil
}
