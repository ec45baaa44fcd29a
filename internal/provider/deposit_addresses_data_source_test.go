package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const listDepositAddressesKey = "GET /v2/transfer/deposit-addresses"

// stringsKnown is the expected value of a list of strings the API always
// sends.
func stringsKnown(ss []string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(ss))
	for i, s := range ss {
		checks[i] = knownvalue.StringExact(s)
	}
	return knownvalue.ListExact(checks)
}

// stringMapKnown is the expected value of a map of strings: null when empty.
func stringMapKnown(m map[string]string) knownvalue.Check {
	if len(m) == 0 {
		return knownvalue.Null()
	}
	checks := make(map[string]knownvalue.Check, len(m))
	for k, v := range m {
		checks[k] = knownvalue.StringExact(v)
	}
	return knownvalue.MapExact(checks)
}

func depositAddressKnown(d emulator.DepositAddress) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id":                         knownvalue.StringExact(d.ID),
		"profile_id":                 strOrNull(d.ProfileID),
		"customer_id":                strOrNull(d.CustomerID),
		"identity_id":                ptrOrNull(d.IdentityID),
		"ref_id":                     ptrOrNull(d.RefID),
		"crypto_network":             strOrNull(d.CryptoNetwork),
		"address":                    strOrNull(d.Address),
		"conversion_target_asset":    ptrOrNull(d.ConversionTargetAsset),
		"account_id":                 strOrNull(d.AccountID),
		"compatible_crypto_networks": stringsKnown(d.CompatibleCryptoNetworks),
		"metadata":                   stringMapKnown(d.Metadata),
		"created_at":                 knownvalue.StringExact(rfc3339(d.CreatedAt)),
	})
}

func TestAccDepositAddresses_filters(t *testing.T) {
	t.Parallel()
	env, all, newest := seededItems(t, emulator.Options{DepositAddresses: 80}, (*emulator.Server).DepositAddresses)

	// Whole items: the newest, and ones with and without each optional field.
	whole := firstItemsWhole(t, all, newest, map[string]func(d emulator.DepositAddress) bool{
		"first":             every[emulator.DepositAddress],
		"no identity":       func(d emulator.DepositAddress) bool { return d.IdentityID == nil },
		"no ref_id":         func(d emulator.DepositAddress) bool { return d.RefID == nil },
		"a target asset":    func(d emulator.DepositAddress) bool { return d.ConversionTargetAsset != nil },
		"two metadata keys": func(d emulator.DepositAddress) bool { return len(d.Metadata) == 2 },
		"no metadata":       func(d emulator.DepositAddress) bool { return len(d.Metadata) == 0 },
		"an EVM network":    func(d emulator.DepositAddress) bool { return len(d.CompatibleCryptoNetworks) > 1 },
	}, depositAddressKnown)

	// Filter values taken from the data.
	profile, account := all[0].ProfileID, all[5].AccountID
	var identity string
	for _, d := range all[3:] {
		if d.IdentityID != nil {
			identity = *d.IdentityID
			break
		}
	}
	someIDs := []string{all[4].ID, all[44].ID, all[70].ID}
	var refIDs []string
	for _, d := range all[20:] {
		if d.RefID != nil && len(refIDs) < 3 {
			refIDs = append(refIDs, *d.RefID)
		}
	}
	networks := []string{"SOLANA", "BITCOIN"}
	from, to := all[10].CreatedAt, all[50].CreatedAt

	testFilterCases(t, env, "platform_deposit_addresses", listDepositAddressesKey, []filterCase{
		{args: "", want: newest, requests: 1, extra: whole},
		{args: `order = "ASC"`, want: idsWhere(all, true, every), requests: 1},
		{args: "profile_ids = " + hclStrings(profile), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return d.ProfileID == profile }), requests: 1},
		{args: "identity_ids = " + hclStrings(identity), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return d.IdentityID != nil && *d.IdentityID == identity }), requests: 1},
		{args: "account_ids = " + hclStrings(account), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return d.AccountID == account }), requests: 1},
		{args: "ids = " + hclStrings(someIDs...), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return slices.Contains(someIDs, d.ID) }), requests: 1},
		{args: "ref_ids = " + hclStrings(refIDs...), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return d.RefID != nil && slices.Contains(refIDs, *d.RefID) }), requests: 1},
		{args: "networks = " + hclStrings(networks...), want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return slices.Contains(networks, d.CryptoNetwork) }), requests: 1},
		{args: fmt.Sprintf("created_at = {\n  gt = %q\n  lte = %q\n}\norder = \"ASC\"", rfc3339(from), rfc3339(to)), want: idsWhere(all, true, func(d emulator.DepositAddress) bool { return d.CreatedAt.After(from) && !d.CreatedAt.After(to) }), requests: 1},
		{args: fmt.Sprintf("profile_ids = %s\nnetworks = %s\ncreated_at = { lt = %q }", hclStrings(profile), hclStrings("ETHEREUM", "BASE", "SOLANA"), rfc3339(to)), want: idsWhere(all, false, func(d emulator.DepositAddress) bool {
			return d.ProfileID == profile && slices.Contains([]string{"ETHEREUM", "BASE", "SOLANA"}, d.CryptoNetwork) && d.CreatedAt.Before(to)
		}), requests: 1},
		{args: "max_items = 5", want: newest[:5], requests: 1},
		// No address on XLAYER: an empty list, not null.
		{args: `networks = ["XLAYER"]`, want: idsWhere(all, false, func(d emulator.DepositAddress) bool { return d.CryptoNetwork == "XLAYER" }), requests: 1},
		{args: "account_ids = []", want: []string{}, requests: 0},
	})
}

func TestAccDepositAddresses_invalidFilters(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{DepositAddresses: 5})
	cases := []struct{ args, err string }{
		{"profile_ids = " + hclManyStrings(101), "Attribute profile_ids list must contain at most 100 elements, got: 101"},
		{"identity_ids = " + hclManyStrings(101), "Attribute identity_ids list must contain at most 100 elements, got: 101"},
		{"ids = " + hclManyStrings(101), "Attribute ids list must contain at most 100 elements, got: 101"},
		{"ref_ids = " + hclManyStrings(101), "Attribute ref_ids list must contain at most 100 elements, got: 101"},
		{"account_ids = " + hclManyStrings(101), "Attribute account_ids list must contain at most 100 elements, got: 101"},
		{`account_ids = [""]`, `Attribute account_ids[0] string length must be at least 1, got: 0`},
		{`created_at = { gte = "2024-01-01T00:00:00" }`, `created_at.gte must be an RFC 3339 date-time`},
		{`order = "NEWEST"`, `Attribute order value must be one of`},
		{`max_items = 0`, `Attribute max_items value must be at least 1, got: 0`},
	}
	testRejectedAtPlan(t, env, "platform_deposit_addresses", cases)
}
