package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestAccTransferDataSource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{Transfers: 40})
	env.needEmulator(t)
	emu := env.emu
	made := postWithdrawal(t, emu, "read-me")
	const hash = "0xd1e5a0c3b7f9e2d4c6a8b0f1e3d5c7a9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1"
	emu.SetTransferStatus(made, client.TransferStatusCompleted, hash)
	seeded := emu.Transfers()[0]
	cfg := env.config(`
data "platform_transfer" "by_id" {
  id = "` + made + `"
}
data "platform_transfer" "by_ref" {
  ref_id = "read-me"
}
data "platform_transfer" "seeded" {
  id = "` + seeded.ID + `"
}
`)
	check := func(addr string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(made)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("ref_id"), knownvalue.StringExact("read-me")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("crypto_tx_hash"), knownvalue.StringExact(hash)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("type"), knownvalue.StringExact("CRYPTO_WITHDRAWAL")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("amount"), knownvalue.StringExact("0.5")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("total"), knownvalue.StringExact("0.5001")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
				"invoice": knownvalue.StringExact("inv-1"),
			})),
		}
	}
	checks := append(check("data.platform_transfer.by_id"), check("data.platform_transfer.by_ref")...)
	checks = append(checks,
		statecheck.ExpectKnownValue("data.platform_transfer.seeded", tfjsonpath.New("type"), knownvalue.StringExact(seeded.Type)),
		statecheck.ExpectKnownValue("data.platform_transfer.seeded", tfjsonpath.New("status"), knownvalue.StringExact(seeded.Status)),
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.config(`data "platform_transfer" "x" { ref_id = "never-used" }`),
				ExpectError: regexp.MustCompile(`No transfer was made with ref_id "never-used"`),
			},
			{
				Config: env.config(`data "platform_transfer" "x" {
  id     = "` + made + `"
  ref_id = "read-me"
}`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*id.*ref_id`),
			},
			{Config: cfg, ConfigStateChecks: checks},
		},
	})
}

// TestAccDataSources_answerOfAnotherObject: the platform_transfer and
// platform_stablecoin_conversion data sources compare the answer with the
// id or ref_id they asked for, and refuse another object.
func TestAccDataSources_answerOfAnotherObject(t *testing.T) {
	env := newAccEnv(t, emulator.Options{StablecoinConversions: 2})
	env.needEmulator(t)
	emu := env.emu
	made := postWithdrawal(t, emu, "asked-for")
	other := postWithdrawal(t, emu, "another")
	emu.AnswerAnotherObject(made, other)
	conversions := emu.StablecoinConversions()
	emu.AnswerAnotherObject(conversions[0].ID, conversions[1].ID)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(`data "platform_transfer" "x" { id = "` + made + `" }`),
				ExpectError: regexp.MustCompile(`(?s)Transfer read answered another transfer.*` +
					errorRe(`the transfer "`+made+`" with the transfer "`+other+`"`).String()),
			},
			{
				// The list answers a transfer of another ref_id.
				PreConfig:   func() { emu.AnswerAnotherObject("asked-for", "another") },
				Config:      env.config(`data "platform_transfer" "x" { ref_id = "asked-for" }`),
				ExpectError: regexp.MustCompile(`(?s)Transfer list answered another ref_id.*` + errorRe(`ref_id "asked-for"`).String()),
			},
			{
				Config: env.config(`data "platform_stablecoin_conversion" "x" { id = "` + conversions[0].ID + `" }`),
				ExpectError: regexp.MustCompile(`(?s)Stablecoin conversion read answered another conversion.*` +
					errorRe(`"`+conversions[1].ID+`"`).String()),
			},
		},
	})
}
