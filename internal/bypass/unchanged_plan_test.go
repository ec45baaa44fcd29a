package bypass

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
)

// TestWithDefault: a default anywhere in a schema, at its root or in a
// nested attribute, leaves its plans and reads to the framework.
func TestWithDefault(t *testing.T) {
	for _, tc := range []struct {
		name  string
		attrs map[string]schema.Attribute
		want  bool
	}{
		{"none", map[string]schema.Attribute{
			"id":   schema.StringAttribute{Computed: true},
			"flag": schema.BoolAttribute{Optional: true},
		}, false},
		{"at the root", map[string]schema.Attribute{
			"flag": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)},
		}, true},
		{"nested", map[string]schema.Attribute{
			"outer": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"inner": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("x")},
			}},
		}, true},
		{"nested without", map[string]schema.Attribute{
			"outer": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"inner": schema.StringAttribute{Optional: true}},
			}},
		}, false},
	} {
		if got := withDefault(schema.Schema{Attributes: tc.attrs}); got != tc.want {
			t.Errorf("%s: withDefault %t, want %t", tc.name, got, tc.want)
		}
	}
}
