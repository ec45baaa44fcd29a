package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const listFiatAccountsKey = "GET /v2/transfer/fiat-accounts"

// Helpers shared by the list data source tests.

// Expected values of fiat accounts, from the emulator's data.

func addressKnown(a *emulator.Address) knownvalue.Check {
	return knownOrNull(a, func(a emulator.Address) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"country":  strOrNull(a.Country),
			"address1": strOrNull(a.Address1),
			"address2": strOrNull(a.Address2),
			"city":     strOrNull(a.City),
			"province": strOrNull(a.Province),
			"zip_code": strOrNull(a.ZipCode),
		})
	})
}

func anyMapKnown[V any](tb testing.TB, m map[string]V) knownvalue.Check {
	tb.Helper()
	if len(m) == 0 {
		return knownvalue.Null()
	}
	out := map[string]knownvalue.Check{}
	for k, v := range m {
		if s, ok := any(v).(string); ok {
			out[k] = knownvalue.StringExact(s)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		out[k] = knownvalue.StringExact(string(b))
	}
	return knownvalue.MapExact(out)
}

// fiatAccountKnown is the whole expected item of a.
func fiatAccountKnown(tb testing.TB, a emulator.FiatAccount) knownvalue.Check {
	tb.Helper()
	owner := knownvalue.Check(knownvalue.Null())
	if a.FiatAccountOwner != nil {
		person := knownvalue.Check(knownvalue.Null())
		if p := a.FiatAccountOwner.PersonDetails; p != nil {
			person = knownvalue.ObjectExact(map[string]knownvalue.Check{
				"first_name": strOrNull(p.FirstName),
				"last_name":  strOrNull(p.LastName),
			})
		}
		institution := knownvalue.Check(knownvalue.Null())
		if d := a.FiatAccountOwner.InstitutionDetails; d != nil {
			institution = knownvalue.ObjectExact(map[string]knownvalue.Check{"name": strOrNull(d.Name)})
		}
		owner = knownvalue.ObjectExact(map[string]knownvalue.Check{"person_details": person, "institution_details": institution})
	}
	fni := knownvalue.Check(knownvalue.Null())
	if a.FiatNetworkInstructions != nil {
		wire := knownvalue.Check(knownvalue.Null())
		if w := a.FiatNetworkInstructions.Wire; w != nil {
			routing := knownvalue.Check(knownvalue.Null())
			if r := w.RoutingDetails; r != nil {
				routing = knownvalue.ObjectExact(map[string]knownvalue.Check{
					"routing_number_type": strOrNull(r.RoutingNumberType),
					"routing_number":      strOrNull(r.RoutingNumber),
					"bank_name":           strOrNull(r.BankName),
					"bank_address":        addressKnown(r.BankAddress),
				})
			}
			wire = knownvalue.ObjectExact(map[string]knownvalue.Check{
				"account_number":             strOrNull(w.AccountNumber),
				"fiat_account_owner_address": addressKnown(w.FiatAccountOwnerAddress),
				"routing_details":            routing,
				"status":                     strOrNull(w.Status),
				"metadata":                   anyMapKnown(tb, w.Metadata),
			})
		}
		fni = knownvalue.ObjectExact(map[string]knownvalue.Check{"wire": wire})
	}
	// The account's status and metadata: at the top level of the item, or
	// else under wire.
	status, metadata := a.Status, a.Metadata
	if n := a.FiatNetworkInstructions; status == "" && n != nil && n.Wire != nil {
		status, metadata = n.Wire.Status, n.Wire.Metadata
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"status":                    strOrNull(status),
		"metadata":                  anyMapKnown(tb, metadata),
		"id":                        knownvalue.StringExact(a.ID),
		"ref_id":                    ptrOrNull(a.RefID),
		"identity_id":               ptrOrNull(a.IdentityID),
		"account_id":                ptrOrNull(a.AccountID),
		"fiat_account_owner":        owner,
		"fiat_network_instructions": fni,
		"created_at":                knownvalue.StringExact(rfc3339(a.CreatedAt)),
		"updated_at":                knownvalue.StringExact(rfc3339(a.UpdatedAt)),
	})
}

func TestAccFiatAccounts_filters(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{FiatAccounts: 60})
	accounts := emu.FiatAccounts()
	live := func(a emulator.FiatAccount) bool { return !a.Deleted }

	liveIDs := idsWhere(accounts, false, live)
	allAsc := idsWhere(accounts, true, every)
	if len(liveIDs) == len(accounts) {
		t.Fatal("the seeded data has no deleted account; pick another seed or size")
	}

	// Items whose nested objects are checked whole: the newest one, and ones
	// with a null person, a null owner address and a null bank address.
	whole := firstItemsWhole(t, accounts, liveIDs, map[string]func(a emulator.FiatAccount) bool{
		"first":     every[emulator.FiatAccount],
		"no person": func(a emulator.FiatAccount) bool { return a.FiatAccountOwner.PersonDetails == nil },
		"metadata of three pairs": func(a emulator.FiatAccount) bool {
			_, ok := a.Metadata["review_score"]
			return ok
		},
		"empty address2": func(a emulator.FiatAccount) bool {
			w := a.FiatNetworkInstructions.Wire
			return w.FiatAccountOwnerAddress != nil && w.FiatAccountOwnerAddress.Address2 == ""
		},
		"no ref_id":     func(a emulator.FiatAccount) bool { return a.RefID == nil },
		"no account_id": func(a emulator.FiatAccount) bool { return a.AccountID == nil },
	}, func(a emulator.FiatAccount) knownvalue.Check { return fiatAccountKnown(t, a) })

	// Filter values taken from the data.
	var someIDs []string // two live accounts and a deleted one
	for _, a := range accounts {
		if (a.Deleted && len(someIDs) == 2) || (!a.Deleted && len(someIDs) < 2 && a.ID != allAsc[0]) {
			someIDs = append(someIDs, a.ID)
		}
	}
	inSet := func(set []string) func(a emulator.FiatAccount) bool {
		return func(a emulator.FiatAccount) bool { return slices.Contains(set, a.ID) }
	}
	var refIDs []string
	for _, a := range accounts[10:] {
		if a.RefID != nil && len(refIDs) < 4 {
			refIDs = append(refIDs, *a.RefID)
		}
	}
	hasRef := func(a emulator.FiatAccount) bool { return a.RefID != nil && slices.Contains(refIDs, *a.RefID) }
	from, to := accounts[20].CreatedAt, accounts[40].CreatedAt
	window := func(a emulator.FiatAccount) bool {
		return live(a) && !a.CreatedAt.Before(from) && a.CreatedAt.Before(to)
	}
	after := func(a emulator.FiatAccount) bool { return a.CreatedAt.After(to) }
	atMost := func(a emulator.FiatAccount) bool { return live(a) && !a.CreatedAt.After(from) }
	exactly := func(a emulator.FiatAccount) bool { return a.CreatedAt.Equal(accounts[33].CreatedAt) }

	testFilterCases(t, env, "platform_fiat_accounts", listFiatAccountsKey, []filterCase{
		// No filter: every live account, newest first, whole items.
		{args: "", want: liveIDs, requests: 1, extra: whole},
		{args: "include_deleted = true\norder = \"ASC\"", want: allAsc, requests: 1},
		{args: "include_deleted = false\norder = \"DESC\"", want: liveIDs, requests: 1},
		{args: "ids = " + hclStrings(someIDs...), want: idsWhere(accounts, false, func(a emulator.FiatAccount) bool { return live(a) && inSet(someIDs)(a) }), requests: 1},
		{args: "ids = " + hclStrings(someIDs...) + "\ninclude_deleted = true", want: idsWhere(accounts, false, inSet(someIDs)), requests: 1},
		{args: "ref_ids = " + hclStrings(refIDs...) + "\ninclude_deleted = true\norder = \"ASC\"", want: idsWhere(accounts, true, hasRef), requests: 1},
		{args: fmt.Sprintf("created_at = {\n  gte = %q\n  lt = %q\n}", rfc3339(from), rfc3339(to)), want: idsWhere(accounts, false, window), requests: 1},
		{args: fmt.Sprintf("created_at = { gt = %q }\ninclude_deleted = true", rfc3339(to)), want: idsWhere(accounts, false, after), requests: 1},
		{args: fmt.Sprintf("created_at = { lte = %q }", rfc3339(from)), want: idsWhere(accounts, false, atMost), requests: 1},
		{args: fmt.Sprintf("created_at = { eq = %q }\ninclude_deleted = true", rfc3339(accounts[33].CreatedAt)), want: idsWhere(accounts, false, exactly), requests: 1},
		{args: "max_items = 7\norder = \"ASC\"\ninclude_deleted = true", want: allAsc[:7], requests: 1},
		// No match: an empty list, not null.
		{args: `ids = ["00000000-0000-4000-8000-000000000000"]`, want: []string{}, requests: 1},
		// An empty filter matches nothing without asking.
		{args: "ids = []", want: []string{}, requests: 0},
	})
}

// TestAccFiatAccounts_paging reads 2,500 accounts in 3 pages of at most
// 1,000, and checks that max_items stops paging early.
func TestAccFiatAccounts_paging(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{FiatAccounts: 2500})
	accounts := emu.FiatAccounts()
	ids := idsWhere(accounts, false, every)
	testFilterCases(t, env, "platform_fiat_accounts", listFiatAccountsKey, []filterCase{
		{args: "include_deleted = true", want: ids, requests: 3},
	})
	testFilterCases(t, env, "platform_fiat_accounts", listFiatAccountsKey, []filterCase{
		{args: "include_deleted = true\nmax_items = 1001", want: ids[:1001], requests: 2},
		{args: "include_deleted = true\nmax_items = 10", want: ids[:10], requests: 1},
	})
}

// TestAccFiatAccounts_invalidFilters checks that each bad filter is
// rejected at plan time, naming the attribute, before any request.
func TestAccFiatAccounts_invalidFilters(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{FiatAccounts: 5})
	cases := []struct{ args, err string }{
		{"ids = " + hclManyStrings(101), "Attribute ids list must contain at most 100 elements, got: 101"},
		{"ref_ids = " + hclManyStrings(101), "Attribute ref_ids list must contain at most 100 elements, got: 101"},
		{`ids = [""]`, `Attribute ids[0] string length must be at least 1, got: 0`},
		{`ref_ids = ["a", null]`, `Null List Value`},
		{`created_at = { gt = "yesterday" }`, `created_at.gt must be an RFC 3339 date-time`},
		{`created_at = { lte = "2024-13-01T00:00:00Z" }`, `created_at.lte must be an RFC 3339 date-time`},
		{`created_at = { eq = "2024-01-01" }`, `created_at.eq must be an RFC 3339 date-time`},
		{`created_at = { lt = "2024-01-01 10:00:00" }`, `created_at.lt must be an RFC 3339 date-time`},
		{`created_at = { gte = "" }`, `created_at.gte must be an RFC 3339 date-time`},
		{`order = "UP"`, `Attribute order value must be one of: ["DESC" "ASC"], got: "UP"`},
		{`order = "asc"`, `Attribute order value must be one of`},
		{`max_items = 0`, `Attribute max_items value must be at least 1, got: 0`},
		{`max_items = -3`, `Attribute max_items value must be at least 1, got: -3`},
	}
	testRejectedAtPlan(t, env, "platform_fiat_accounts", cases)
}

// BenchmarkFiatAccountsRead reads 10,000 fiat accounts from an emulator
// through the provider's protocol server, as Terraform does.
func BenchmarkFiatAccountsRead(b *testing.B) {
	emu := emulator.StartTest(b, emulator.Options{FiatAccounts: 10000})
	h := newProtoHarness(b, emu, true)
	set := map[string]tftypes.Value{"include_deleted": tfBool(true)}
	// One read outside the timing, to check the result and warm up.
	if items := listOf(b, h.read(b, "platform_fiat_accounts", set)["items"]); len(items) != 10000 {
		b.Fatalf("read %d accounts, want 10000", len(items))
	}
	b.ReportAllocs()
	var stateBytes int
	for b.Loop() {
		resp := h.readRaw(b, b.Context(), "platform_fiat_accounts", set)
		failOnDiags(b, "ReadDataSource", resp.Diagnostics)
		stateBytes = len(resp.State.MsgPack)
	}
	b.ReportMetric(float64(stateBytes), "state-bytes/op")
}
