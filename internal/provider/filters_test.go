package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
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

func TestListFiltersCreatedAtAndArrays(t *testing.T) {
	var diags diag.Diagnostics
	m := &createdAtModel{
		LT: types.StringValue("2024-01-02T00:00:00Z"), GTE: types.StringValue("2023-12-31T23:59:59.5+01:00"),
		LTE: types.StringNull(), EQ: types.StringNull(), GT: types.StringNull(),
	}
	f := m.filter(&diags)
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
	if f := (*createdAtModel)(nil).filter(&diags); f != (client.CreatedAtFilter{}) {
		t.Fatalf("a null created_at filters nothing, got %+v", f)
	}

	ctx := context.Background()
	null := listStrings(ctx, types.ListNull(types.StringType), &diags)
	emptyList := listStrings(ctx, types.ListValueMust(types.StringType, []attr.Value{}), &diags)
	one := listStrings(ctx, types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")}), &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if matchesNothing(null, one) || !matchesNothing(null, emptyList, one) {
		t.Fatal("only a configured empty list matches nothing")
	}
	noFilter := filtersID("x", client.ListFiatAccountsQuery{})
	if filtersID("x", client.ListFiatAccountsQuery{IDs: one.values}) == noFilter ||
		filtersID("x", client.ListFiatAccountsQuery{Order: ""}) != noFilter ||
		filtersID("y", client.ListFiatAccountsQuery{}) == noFilter {
		t.Fatal("the id must follow the kind and the filters, and only them")
	}
}
