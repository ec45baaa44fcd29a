package provider

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const listTransfersKey = "GET /v2/transfer/transfers"

// transferIDs returns the ids of the transfers that keep passes, newest
// first by created_at unless asc, or by updated_at when byUpdated.
func transferIDs(all []emulator.Transfer, asc, byUpdated bool, keep func(t emulator.Transfer) bool) []string {
	picked := []emulator.Transfer{}
	for _, t := range all {
		if keep(t) {
			picked = append(picked, t)
		}
	}
	if byUpdated {
		sort.SliceStable(picked, func(i, j int) bool { return picked[i].UpdatedAt.Before(picked[j].UpdatedAt) })
	}
	ids := make([]string, len(picked))
	for i, t := range picked {
		ids[i] = t.ID
	}
	if !asc {
		slices.Reverse(ids)
	}
	return ids
}

func TestAccTransfers_filters(t *testing.T) {
	t.Parallel()
	// 2,600 seeded transfers: the unfiltered reads take three pages.
	env, emu := emulatorEnv(t, emulator.Options{Transfers: 2600})
	all := emu.AllTransfers()
	newest := transferIDs(all, false, false, every)
	profile := all[0].ProfileID
	someIDs := []string{all[4].ID, all[1400].ID, all[2599].ID}
	var refIDs, hashes []string
	for _, tr := range all[100:] {
		if tr.RefID != nil && len(refIDs) < 3 {
			refIDs = append(refIDs, *tr.RefID)
		}
		if tr.CryptoTxHash != nil && len(hashes) < 2 {
			hashes = append(hashes, *tr.CryptoTxHash)
		}
	}
	var group string
	for _, tr := range all {
		if tr.GroupID != nil {
			group = *tr.GroupID
			break
		}
	}
	from, to := all[300].CreatedAt, all[2000].CreatedAt
	updatedFrom := all[1000].UpdatedAt
	types := []string{"CRYPTO_DEPOSIT", "WIRE_DEPOSIT"}
	testFilterCases(t, env, "platform_transfers", listTransfersKey, []filterCase{
		{args: "", want: newest, requests: 3},
		{args: `order = "ASC"`, want: transferIDs(all, true, false, every), requests: 3},
		{args: "types = " + hclStrings(types...) + fmt.Sprintf("\ncreated_at = {\n  gt = %q\n  lte = %q\n}", rfc3339(from), rfc3339(to)), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool {
			return slices.Contains(types, tr.Type) && tr.CreatedAt.After(from) && !tr.CreatedAt.After(to)
		}), requests: 1},
		{args: "profile_ids = " + hclStrings(profile) + fmt.Sprintf("\ncreated_at = {\n  gt = %q\n}", rfc3339(from)), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool {
			return tr.ProfileID == profile && tr.CreatedAt.After(from)
		}), requests: 1},
		{args: "ids = " + hclStrings(someIDs...), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool { return slices.Contains(someIDs, tr.ID) }), requests: 1},
		{args: "ref_ids = " + hclStrings(refIDs...), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool { return tr.RefID != nil && slices.Contains(refIDs, *tr.RefID) }), requests: 1},
		{args: "crypto_tx_hashes = " + hclStrings(hashes...), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool {
			return tr.CryptoTxHash != nil && slices.Contains(hashes, *tr.CryptoTxHash)
		}), requests: 1},
		{args: "group_ids = " + hclStrings(group), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool { return tr.GroupID != nil && *tr.GroupID == group }), requests: 1},
		{args: fmt.Sprintf("created_at = {\n  gt = %q\n  lte = %q\n}", rfc3339(from), rfc3339(to)), want: transferIDs(all, false, false, func(tr emulator.Transfer) bool {
			return tr.CreatedAt.After(from) && !tr.CreatedAt.After(to)
		}), requests: 2},
		{args: fmt.Sprintf("updated_at = { gte = %q }\norder_by = \"UPDATED_AT\"\norder = \"ASC\"", rfc3339(updatedFrom)), want: transferIDs(all, true, true, func(tr emulator.Transfer) bool {
			return !tr.UpdatedAt.Before(updatedFrom)
		}), requests: 2},
		// A type this version does not know is sent as given.
		{args: `types = ["CUBIX_DEPOSIT"]`, want: []string{}, requests: 1},
		{args: "max_items = 1500", want: newest[:1500], requests: 2},
		{args: "statuses = []", want: []string{}, requests: 0},
	})
}

func TestAccTransfers_invalidFilters(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{Transfers: 5})
	cases := []struct{ args, err string }{
		{"ids = " + hclManyStrings(101), "Attribute ids list must contain at most 100 elements, got: 101"},
		{`statuses = ["DONE"]`, `Attribute statuses[0] value must be one of`},
		{`updated_at = { gte = "yesterday" }`, `updated_at.gte must be an RFC 3339 date-time`},
		{`order_by = "AMOUNT"`, `Attribute order_by value must be one of`},
		{`max_items = 0`, `Attribute max_items value must be at least 1, got: 0`},
	}
	testRejectedAtPlan(t, env, "platform_transfers", cases)
}
