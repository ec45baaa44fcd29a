package provider

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// conversionChecks checks every attribute of the data source addr against c.
func conversionChecks(addr string, c emulator.StablecoinConversion) []statecheck.StateCheck {
	want := map[string]knownvalue.Check{
		"id":                   knownvalue.StringExact(c.ID),
		"profile_id":           strOrNull(c.ProfileID),
		"amount":               strOrNull(c.Amount),
		"source_asset":         strOrNull(c.SourceAsset),
		"target_asset":         strOrNull(c.TargetAsset),
		"status":               strOrNull(c.Status),
		"ref_id":               ptrOrNull(c.RefID),
		"identity_id":          ptrOrNull(c.IdentityID),
		"account_id":           ptrOrNull(c.AccountID),
		"created_at":           knownvalue.StringExact(rfc3339(c.CreatedAt)),
		"updated_at":           knownvalue.StringExact(rfc3339(c.UpdatedAt)),
		"settled_at":           timePtrKnown(c.SettledAt),
		"cancelled_at":         timePtrKnown(c.CancelledAt),
		"metadata":             stringMapKnown(c.Metadata),
		"recipient_profile_id": ptrOrNull(c.RecipientProfileID),
	}
	checks := make([]statecheck.StateCheck, 0, len(want))
	for name, check := range want {
		checks = append(checks, statecheck.ExpectKnownValue(addr, tfjsonpath.New(name), check))
	}
	return checks
}

func TestAccStablecoinConversion_read(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{StablecoinConversions: 40})
	all := emu.StablecoinConversions()
	// Conversions that together leave each optional field out and set it.
	picks := map[string]func(c emulator.StablecoinConversion) bool{
		"settled":   func(c emulator.StablecoinConversion) bool { return c.SettledAt != nil },
		"cancelled": func(c emulator.StablecoinConversion) bool { return c.CancelledAt != nil },
		"open": func(c emulator.StablecoinConversion) bool {
			return c.SettledAt == nil && c.CancelledAt == nil && c.IdentityID == nil && len(c.Metadata) == 0
		},
		"directed": func(c emulator.StablecoinConversion) bool { return c.RecipientProfileID != nil },
		"third_party": func(c emulator.StablecoinConversion) bool {
			return c.IdentityID != nil && c.AccountID != nil && len(c.Metadata) > 0
		},
	}
	var blocks []string
	var checks []statecheck.StateCheck
	for name, match := range picks {
		i := slices.IndexFunc(all, match)
		if i < 0 {
			t.Fatalf("the seeded data has no %s conversion", name)
		}
		blocks = append(blocks, fmt.Sprintf("data \"platform_stablecoin_conversion\" %q {\n  id = %q\n}\n", name, all[i].ID))
		checks = append(checks, conversionChecks("data.platform_stablecoin_conversion."+name, all[i])...)
	}
	missing := "7f1c1a8e-0000-4000-8000-00000000abcd"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:         emu.Counters.Reset,
				Config:            env.config(blocks...),
				ConfigStateChecks: checks,
				Check: func(*terraform.State) error {
					if n := emu.Counters.APIRequests(); n != len(picks) {
						return fmt.Errorf("%d API requests, want one per conversion (%d)", n, len(picks))
					}
					return nil
				},
			},
			{
				// An unknown id is an error that says so and names the id.
				Config: env.config(fmt.Sprintf("data \"platform_stablecoin_conversion\" \"missing\" {\n  id = %q\n}\n", missing)),
				ExpectError: regexp.MustCompile(`(?s)Stablecoin conversion not found.*` +
					errorRe(fmt.Sprintf(`No stablecoin conversion with id %q was found`, missing)).String()),
			},
		},
	})
}

func TestAccStablecoinConversion_invalidID(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{StablecoinConversions: 1})
	cases := []struct{ args, err string }{
		{`id = "conversion-1"`, `Attribute id must be a UUID`},
		{`id = ""`, `Attribute id must be a UUID`},
		{`id = "7f1c1a8e-0000-4000-8000-00000000abcd/../x"`, `Attribute id must be a UUID`},
	}
	testRejectedAtPlan(t, env, "platform_stablecoin_conversion", cases)
}
