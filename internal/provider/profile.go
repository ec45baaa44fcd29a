package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A profile (GET /profiles/{id}): its id, nickname, description and type,
// and the one model of the platform_profile resource and list resource.

// profileModel is the state of a platform_profile.
type profileModel struct {
	ID          types.String `tfsdk:"id"`
	Nickname    types.String `tfsdk:"nickname"`
	Description types.String `tfsdk:"description"`
	Type        types.String `tfsdk:"type"`
}

// set writes m (a shapedWriter, for the list results).
func (m profileModel) set(ctx context.Context, dst setter, _ typed) diag.Diagnostics {
	return dst.Set(ctx, m)
}

// fromAPI records the profile p as the service answered it.
func (m *profileModel) fromAPI(p *client.Profile) {
	m.ID = types.StringValue(p.ID)
	m.Nickname = types.StringValue(p.Nickname)
	m.Description = stringValue(p.Description)
	m.Type = types.StringValue(p.Type)
}

// profileWords name profiles in the messages shared with the money core.
var profileWords = createWords{
	refNamespace: "profile",
	resourceType: "platform_profile",
	noun:         "profile",
	made:         "created",
	path:         client.PathProfiles,
	scope:        client.ScopeWriteProfile,
}.filled()

// nicknameKey is the nickname as the service compares it (without letter
// case): the key of an unconfirmed create in the attempt set.
func nicknameKey(n string) string { return strings.ToLower(n) }

// profileImportBlock is the import block that adopts the profile id.
func profileImportBlock(id string) string {
	return fmt.Sprintf("  import {\n    to = platform_profile.<name>\n    id = %q\n  }", id)
}

// heldBalances are the balances of bs above zero, as "10 USD" (available
// and trading counted apart); a value that is not a decimal counts as
// held, since nothing says it is zero.
func heldBalances(bs []client.ProfileBalance) []string {
	var out []string
	for _, b := range bs {
		for _, v := range []struct{ what, value string }{{"available", b.Available}, {"trading", b.Trading}} {
			if v.value == "" {
				continue
			}
			d, err := decimal.NewFromString(v.value)
			if err == nil && !d.IsPositive() {
				continue
			}
			out = append(out, fmt.Sprintf("%s %s %s", shown(v.value), shown(b.Asset), v.what))
		}
	}
	return out
}
