package provider

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestListFiltersValueHelpers(t *testing.T) {
	empty, text := "", "text"
	for _, c := range []struct {
		name string
		got  attr.Value
		want attr.Value
	}{
		{"nil string", stringValue(nil), types.StringNull()},
		{"empty string", stringValue(&empty), types.StringNull()},
		{"string", stringValue(&text), types.StringValue("text")},
		{"nil time", timeValue(nil), types.StringNull()},
		{"time", timeValue(new(time.Date(2024, 3, 4, 5, 6, 7, 890000000, time.UTC))), types.StringValue("2024-03-04T05:06:07.89Z")},
		{"time with offset", timeValue(new(time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 3600)))), types.StringValue("2024-03-04T05:06:07+01:00")},
		{"nil list", stringListValue(nil), types.ListNull(types.StringType)},
		{"empty list", stringListValue([]string{}), types.ListValueMust(types.StringType, []attr.Value{})},
		{"list", stringListValue([]string{"a", "b"}), types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")})},
		{"nil map", stringMapValue(nil), types.MapNull(types.StringType)},
		{"empty map", stringMapValue(map[string]string{}), types.MapNull(types.StringType)},
		{"map", stringMapValue(map[string]string{"k": "v"}), types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")})},
	} {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: got %s, want %s", c.name, c.got, c.want)
		}
	}
}

func TestListFiltersRFC3339Validator(t *testing.T) {
	for raw, ok := range map[string]bool{
		"2024-01-02T15:04:05Z":          true,
		"2024-01-02T15:04:05.123456Z":   true,
		"2024-01-02T15:04:05+05:30":     true,
		"2024-01-02":                    false,
		"2024-01-02 15:04:05Z":          false,
		"2024-13-02T15:04:05Z":          false,
		"yesterday":                     false,
		"":                              false,
		"2024-01-02T15:04:05":           false,
		"2024-01-02T15:04:05.123+01:00": true,
	} {
		resp := &validator.StringResponse{}
		rfc3339Validator{}.ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("created_at").AtName("gt"), ConfigValue: types.StringValue(raw),
		}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: error = %v, want %v", raw, resp.Diagnostics.HasError(), !ok)
		}
		if !ok && resp.Diagnostics.HasError() {
			if d := resp.Diagnostics[0].Detail(); d != `created_at.gt must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z, got "`+raw+`".` {
				t.Errorf("%q: detail %q", raw, d)
			}
		}
	}
}

func TestListFiltersCreatedAtAndID(t *testing.T) {
	var diags diag.Diagnostics
	m := &createdAtModel{
		LT: types.StringValue("2024-01-02T00:00:00Z"), GTE: types.StringValue("2023-12-31T23:59:59.5+01:00"),
		LTE: types.StringNull(), EQ: types.StringNull(), GT: types.StringNull(),
	}
	f := m.filterAt("created_at", &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := client.CreatedAtFilter{
		LT:  time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
		GTE: time.Date(2023, 12, 31, 22, 59, 59, 500000000, time.UTC),
	}
	if !f.LT.Equal(want.LT) || !f.GTE.Equal(want.GTE) || !f.LTE.IsZero() || !f.EQ.IsZero() || !f.GT.IsZero() {
		t.Fatalf("filter = %+v, want %+v", f, want)
	}
	if f := (*createdAtModel)(nil).filterAt("created_at", &diags); f != (client.CreatedAtFilter{}) {
		t.Fatalf("a null created_at filters nothing, got %+v", f)
	}

	noFilter := filtersID("x", client.ListFiatAccountsQuery{})
	if filtersID("x", client.ListFiatAccountsQuery{IDs: []string{"a"}}) == noFilter ||
		filtersID("x", client.ListFiatAccountsQuery{Order: ""}) != noFilter ||
		filtersID("y", client.ListFiatAccountsQuery{}) == noFilter {
		t.Fatal("the id must follow the list's name and the filters, and only them")
	}
}

// TestListFiltersRenderAlike checks that every filter renders the same
// attribute for a list data source and for a list resource: same type,
// description and validators.
func TestListFiltersRenderAlike(t *testing.T) {
	ctx := context.Background()
	check := func(name string, ds dschema.Attribute, lr listschema.Attribute) {
		t.Helper()
		if !ds.GetType().Equal(lr.GetType()) || ds.GetMarkdownDescription() != lr.GetMarkdownDescription() ||
			!ds.IsOptional() || !lr.IsOptional() || ds.IsComputed() || lr.IsComputed() {
			t.Errorf("%s: data source %T %s %q, list resource %T %s %q", name, ds, ds.GetType(),
				ds.GetMarkdownDescription(), lr, lr.GetType(), lr.GetMarkdownDescription())
		}
		type withListValidators interface{ ListValidators() []validator.List }
		if dv, ok := ds.(withListValidators); ok {
			lv, _ := lr.(withListValidators)
			if lv == nil || !reflect.DeepEqual(dv.ListValidators(), lv.ListValidators()) {
				t.Errorf("%s: the list validators differ", name)
			}
		}
	}
	all := map[string][]filterAttributeOf{
		"transfers":                      attributesOf(transferFilters),
		"fiat accounts":                  attributesOf(fiatAccountFilters),
		"deposit addresses":              attributesOf(depositAddressFilters),
		"reward claims":                  attributesOf(rewardClaimFilters),
		"crypto withdrawal list":         attributesOf(transferListFilters(withdrawalWords.plural)),
		"fiat deposit instructions list": attributesOf(fiatDepositInstructionsList.filters),
	}
	for list, attrs := range all {
		if len(attrs) == 0 {
			t.Errorf("%s: no filters", list)
		}
		for _, a := range attrs {
			check(list+" "+a.name, a.attr.dataSource(), a.attr.listResource())
		}
	}
	// Each surface refuses a null element of an array filter, naming it.
	for _, a := range attributesOf(transferListFilters(withdrawalWords.plural)) {
		lr, _ := a.attr.listResource().(listschema.ListAttribute)
		resp := &validator.ListResponse{}
		for _, v := range lr.Validators {
			v.ValidateList(ctx, validator.ListRequest{
				Path:        path.Root(a.name),
				ConfigValue: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("x"), types.StringNull()}),
			}, resp)
		}
		if !resp.Diagnostics.HasError() {
			t.Errorf("%s: a null element passes", a.name)
		}
	}
}

// filterAttributeOf is a filter's name and attribute.
type filterAttributeOf struct {
	name string
	attr filterAttribute
}

func attributesOf[Q any](fs listFilters[Q]) []filterAttributeOf {
	out := make([]filterAttributeOf, len(fs))
	for i, f := range fs {
		out[i] = filterAttributeOf{f.name, f.attr}
	}
	return out
}

// filterReadCases are configurations of each list data source with every
// filter set to its own value, and one with an empty array filter. The id
// of a read is a hash of the client query it built, so a filter that lands
// in another field of the query (or in none) changes it.
var filterReadCases = []struct {
	name, typeName string
	set            map[string]tftypes.Value
	// id is the pinned id of the read; requests is how many list requests
	// it sends (0: it matches nothing and sends none).
	id       string
	requests int
}{
	// List Transfers combines ids, ref_ids, profile_ids, identity_ids,
	// account_ids and type with the time filters only: each is read alone
	// with them, and the others together.
	{"transfers ids", "platform_transfers", map[string]tftypes.Value{
		"ids": tfStrings("i1", "i2"), "created_at": timeRange("gt", "2024-01-02T03:04:05Z"), "order": tfString("ASC"),
		"order_by": tfString("CREATED_AT"), "max_items": tfInt(7),
	}, "686dd4eef9b807b6becbd261ed4eb8f3", 1},
	{"transfers ref_ids", "platform_transfers", map[string]tftypes.Value{
		"ref_ids": tfStrings("r1"), "updated_at": timeRange("lte", "2025-01-02T03:04:05Z"),
	}, "5e59ba60f6278e88c64b72c4096d801c", 1},
	{"transfers profile_ids", "platform_transfers", map[string]tftypes.Value{"profile_ids": tfStrings("p1")}, "f4fccc94f44ea19881f3bc0875d51084", 1},
	{"transfers identity_ids", "platform_transfers", map[string]tftypes.Value{"identity_ids": tfStrings("n1")}, "692a567905b1a18a0bf2b9d5ff00fa63", 1},
	{"transfers account_ids", "platform_transfers", map[string]tftypes.Value{"account_ids": tfStrings("a1")}, "29ec8bb582b0182df4940fb7bf1bf459", 1},
	{"transfers types", "platform_transfers", map[string]tftypes.Value{"types": tfStrings("CRYPTO_DEPOSIT")}, "227b9b1aef25c973c0803081125f12a3", 1},
	{"transfers other filters", "platform_transfers", map[string]tftypes.Value{
		"group_ids": tfStrings("g1"), "crypto_tx_hashes": tfStrings("h1"), "statuses": tfStrings("PENDING"),
		"created_at": timeRange("gt", "2024-01-02T03:04:05Z"), "updated_at": timeRange("lte", "2025-01-02T03:04:05Z"),
		"order": tfString("ASC"), "max_items": tfInt(7),
	}, "a45826155472c826669402bdff8f7bd3", 1},
	{"transfers empty ref_ids", "platform_transfers", map[string]tftypes.Value{
		"ref_ids": tfStrings(), "statuses": tfStrings("PENDING"),
	}, "b7325d958ee52c0b55ac6fdbbba3b40b", 0},
	{"fiat accounts every filter", "platform_fiat_accounts", map[string]tftypes.Value{
		"ids": tfStrings("i1"), "ref_ids": tfStrings("r1", "r2"), "include_deleted": tfBool(true),
		"created_at": timeRange("eq", "2024-01-02T03:04:05.5+01:00"), "order": tfString("DESC"), "max_items": tfInt(3),
	}, "f638d9b3204d64206d6ea47db8e66f41", 1},
	{"fiat accounts empty ids", "platform_fiat_accounts", map[string]tftypes.Value{"ids": tfStrings()}, "1edaade5aac564983d23f46868191519", 0},
	{"deposit addresses every filter", "platform_deposit_addresses", map[string]tftypes.Value{
		"profile_ids": tfStrings("p1"), "identity_ids": tfStrings("n1"), "ids": tfStrings("i1"),
		"ref_ids": tfStrings("r1"), "account_ids": tfStrings("a1"), "networks": tfStrings("ETHEREUM"),
		"created_at": timeRange("lt", "2024-01-02T03:04:05Z"), "order": tfString("ASC"), "max_items": tfInt(2),
	}, "1367dc35b2d73fbbd11f058d71b0ab6a", 1},
	{"deposit addresses empty networks", "platform_deposit_addresses", map[string]tftypes.Value{"networks": tfStrings()}, "c056093048ee93f4ad0b051b3522813c", 0},
	{"reward claims every filter", "platform_reward_claims", map[string]tftypes.Value{
		"payout_group_id": tfString("pg"), "onchain_statuses": tfStrings("CONFIRMED"), "asset_type": tfString("USDG"),
		"chain": tfString("ETHEREUM"), "jurisdiction": tfString("US"), "start_time": tfString("2024-01-02T03:04:05Z"),
		"end_time": tfString("2024-02-02T03:04:05Z"), "max_items": tfInt(5),
	}, "ae6c9f68106192a27cc670a49c9ec900", 1},
	{"reward claims empty statuses", "platform_reward_claims", map[string]tftypes.Value{"onchain_statuses": tfStrings()}, "95923e8001bbd2a88e622d6ddc68da75", 0},
}

// tfStrings is a list of strings.
func tfStrings(ss ...string) tftypes.Value {
	vs := make([]tftypes.Value, len(ss))
	for i, s := range ss {
		vs[i] = tfString(s)
	}
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vs)
}

// timeRange is a created_at-like filter with one bound set.
func timeRange(bound, t string) tftypes.Value {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"lt": tftypes.String, "lte": tftypes.String, "eq": tftypes.String, "gte": tftypes.String, "gt": tftypes.String,
	}}
	return objectOf(typ, map[string]tftypes.Value{bound: tfString(t)})
}

// TestListFiltersReadByName reads every list data source through the
// protocol server with every filter set and checks the id of the read (the
// hash of the client query) and the number of list requests: a filter read
// into the wrong field of the query changes the id.
func TestListFiltersReadByName(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{Transfers: 5, FiatAccounts: 5, DepositAddresses: 5, RewardClaims: 5})
	h := newProtoHarness(t, emu, true)
	for _, c := range filterReadCases {
		t.Run(c.name, func(t *testing.T) {
			before := emu.Counters.APIRequests()
			attrs := h.read(t, c.typeName, c.set)
			var id string
			if err := attrs["id"].As(&id); err != nil {
				t.Fatal(err)
			}
			if id != c.id {
				t.Errorf("id = %q, want %q", id, c.id)
			}
			if got := emu.Counters.APIRequests() - before; got != c.requests {
				t.Errorf("%d list requests, want %d", got, c.requests)
			}
			if c.requests == 0 && len(listOf(t, attrs["items"])) != 0 {
				t.Errorf("items = %v, want none", attrs["items"])
			}
		})
	}
}
