package registry

import (
	"regexp"
	"slices"
	"strings"
)

// CLITests are the acceptance tests whose behaviour depends on the CLI that
// runs them (Terraform 1.11, Terraform 1.14+, OpenTofu), by the registered
// type they cover, keyed as its block names it ("resource
// platform_crypto_withdrawal"), and "provider" for the provider as a whole.
// They exercise what the CLIs do differently: actions, terraform query and
// list resources, resource identity and import blocks, the registry
// address, modules and provider aliases, saved plans, processes killed or
// cancelled mid-apply, and upgrades from state files of an earlier release.
//
// make test runs the whole acceptance suite under one CLI and these tests
// under every other (make test-all runs the whole suite under each). The
// provider's TestRegistryComplete fails when a resource, ephemeral
// resource, list resource or action has no entry here, and when an entry
// names a test that does not exist, so a new type cannot be left out of
// the matrix. This is the one list: a money type's fixture
// (<type>_fixture_test.go) holds no copy of its entries.
var CLITests = map[string][]string{
	"provider": {
		"TestAccEmulatorExample",                               // terraform test and init of a module, registry address
		"TestAccGuardFloor_environmentBindsEveryProviderBlock", // modules and aliased provider blocks
		"TestAccCredentialsRejected_cliPaths",                  // saved plan, import block, query, action
		"TestAccMoneyGuard",                                    // modules and for_each, plan JSON
		"TestAccCheckBalances",                                 // for_each payroll of every money type, plan refused
		"TestAccWithdrawalMistakes_failThePlanOnce",            // diagnostics of validation and of the plan, each printed once
		"TestAccPolicies_everyEngine",                          // plan JSON of each CLI, actions, under every policy engine
		"TestAccMoneyHalt",                                     // saved plan, actions, every money type refused
		"TestAccMaxDailyTotal",                                 // saved plan refused at send, two states on one profile
		"TestAccAddressChecksum_refusedAtPlan",                 // plan errors of resources and of an action, as each CLI shows them
		"TestAccSaidOnce_rejectedSecret",                       // a configuration's error said once in a plan, an apply and a refresh
		"TestAccSaidOnce_pinnedScopesLack",                     // plan refused once per scope the pinned list lacks
		"TestAccGuideSnippets_brokenRecipeFails",               // init from a mirror, recipes that fail as copied
	},
	"resource platform_crypto_withdrawal": moneyCoreTests(
		"TestAccMoneyCore_upgradeEveryType",
		"TestAccExactlyOnce_upgradeConfirmedWithdrawal",
		"TestAccExactlyOnce_upgradeUnconfirmedWithdrawal",
		"TestAccCryptoWithdrawal_importByIdentity",
		"TestAccMoneyCore_upgradeFromPreviousRelease",
	),
	"resource platform_fiat_deposit_instructions": moneyCoreTests(
		"TestAccMoneyCore_upgradeEveryType",
		"TestAccMoneyCore_upgradeFromPreviousRelease",
	),
	"resource platform_deposit_address": moneyCoreTests(
		"TestAccMoneyCore_upgradeEveryType",
		"TestAccDepositAddress_cli",
	),
	"resource platform_fiat_account": moneyCoreTests(
		"TestAccMoneyCore_upgradeEveryType",
		"TestAccFiatAccount_importAndErrors",
	),
	"resource platform_fiat_withdrawal": moneyCoreTests(
		"TestAccMoneyFlows",
		"TestAccFiatWithdrawal_accountApproval",
		"TestAccFiatWithdrawal_summaryNamesAccount",
	),
	"resource platform_internal_transfer": moneyCoreTests(
		"TestAccMoneyFlows",
	),
	"resource platform_stablecoin_conversion": moneyCoreTests(
		"TestAccMoneyFlows",
	),
	"resource platform_orchestration_rule": moneyCoreTests(
		"TestAccOrchestrationRule_lifecycle",
		"TestAccOrchestrationRule_guards",
	),
	"resource platform_crypto_destination_address": {
		"TestAccCryptoDestinationAddress_lifecycle",
		"TestAccCryptoDestinationAddress_upgrade",
	},
	"resource platform_profile": {
		"TestAccProfile_lifecycle",
		"TestAccProfile_lostAnswer",
		"TestAccProfile_exactlyOnce",
	},
	"ephemeral platform_access_token":              {"TestAccAccessTokenEphemeralResource"},
	"action platform_crypto_withdrawal":            {"TestAccCryptoWithdrawalAction", "TestAccGuardAtSend_action"},
	"list platform_crypto_withdrawal":              {"TestAccListResources_queryAndGenerateConfig"},
	"list platform_fiat_deposit_instructions":      {"TestAccListResources_queryAndGenerateConfig"},
	"list platform_deposit_address":                {"TestAccListResources_examples"},
	"list platform_crypto_destination_address":     {"TestAccCryptoDestinationAddress_query"},
	"list platform_fiat_account":                   {"TestAccFiatAccount_queryGeneratesValidConfig"},
	"list platform_profile":                        {"TestAccProfile_query"},
	"list platform_fiat_withdrawal":                {"TestAccMoneyFlows_query"},
	"list platform_internal_transfer":              {"TestAccMoneyFlows_query"},
	"list platform_orchestration_rule":             {"TestAccListResources_examples"},
	"action platform_fiat_withdrawal":              {"TestAccMoneyFlowActions"},
	"action platform_internal_transfer":            {"TestAccMoneyFlowActions"},
	"action platform_stablecoin_conversion":        {"TestAccMoneyFlowActions"},
	"action platform_stablecoin_conversion_cancel": {"TestAccMoneyFlowActions"},
}

// moneyCoreTests are a money type's tests of the CLI matrix: those that
// every resource on the money core keyed by a ref_id shares, then own.
func moneyCoreTests(own ...string) []string {
	return append([]string{
		"TestAccRefreshPolicy",
		"TestAccExactlyOnce_killedMidApply",
		"TestAccExactlyOnce_savedPlanAfterUnknownOutcome",
		"TestAccIntent_importNeverSends",
		"TestAccMoneyCore",
	}, own...)
}

// CLITestNames are the tests of CLITests, sorted, each once.
func CLITestNames() []string {
	var names []string
	for _, tests := range CLITests {
		names = append(names, tests...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// CLITestPattern is the go test -run pattern of exactly the tests of
// CLITests.
func CLITestPattern() string {
	names := CLITestNames()
	for i, n := range names {
		names[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(names, "|") + ")$"
}
