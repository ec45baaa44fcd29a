package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Figure 5: the peak RSS of a fresh process reading 100,000 seeded items of
// each list data source through the provider's protocol server.

// listRSSItems is the number of seeded items of each list in figure 5.
const listRSSItems = 100_000

// targetListRSS is the bound of figure 5: 150 MiB.
const targetListRSS = 150 << 20

// listDataSources are the list data sources of figure 5, with the
// configuration that reads every seeded item.
var listDataSources = []struct {
	typ  string
	args map[string]tftypes.Value
}{
	{"platform_fiat_accounts", map[string]tftypes.Value{"include_deleted": tftypes.NewValue(tftypes.Bool, true)}},
	{"platform_deposit_addresses", nil},
	{"platform_reward_claims", nil},
	{"platform_transfers", nil},
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
	for _, ds := range listDataSources {
		if ds.typ != *rssListDS {
			continue
		}
		if !prov.hasDataSource(ds.typ) {
			return nil, errNotRegistered(ds.typ)
		}
		cfg, err := prov.dataSourceConfig(ds.typ, ds.args)
		if err != nil {
			return nil, err
		}
		state, err := prov.readDataSource(ctx, ds.typ, cfg)
		if err != nil {
			return nil, err
		}
		// The peak of the read, before the state is decoded here to count
		// its items.
		hwm, err := vmHWM()
		if err != nil {
			return nil, err
		}
		n, err := prov.listLength(ds.typ, state, "items")
		return &rssResult{Items: n, VmHWMKB: hwm, StateBytes: len(state.MsgPack)}, err
	}
	return nil, fmt.Errorf("unknown list data source %q", *rssListDS)
}

// figureListRSS is figure 5.
func (b *bench) figureListRSS(ctx context.Context) error {
	progress("figure 5: seeding %d items of each list", listRSSItems)
	emu, ep, err := startEmulator(emulator.Options{
		Seed: 1, FiatAccounts: listRSSItems, DepositAddresses: listRSSItems, RewardClaims: listRSSItems,
		Transfers: listRSSItems,
	})
	if err != nil {
		return err
	}
	defer emu.Close()
	for _, ds := range listDataSources {
		progress("figure 5: peak RSS of a fresh process reading %s", ds.typ)
		var res rssResult
		if err := startChild(ctx, ep, "rss-list", &res, "-ds="+ds.typ); err != nil {
			return fmt.Errorf("%s: %w", ds.typ, err)
		}
		p := res.VmHWMKB * 1024
		b.add(row{"5", fmt.Sprintf("%s, %s items listed (state: %s of msgpack): peak RSS of a fresh process doing one read (protocol server in-process)",
			ds.typ, fmtCount(uint64(res.Items)), fmtMB(uint64(res.StateBytes))), //nolint:gosec // A count and a size.
			fmtMiB(p), "", "", fmt.Sprintf("≤ %s: %s", fmtMiB(targetListRSS), met(p <= targetListRSS))})
	}
	return nil
}
