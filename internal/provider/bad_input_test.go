package provider

// Every invalid argument of every resource, data source, ephemeral
// resource, action and of the provider block is rejected at plan, with a
// message naming the attribute, before any request; every invalid filter
// of a list resource is rejected at validation, on its attribute. Each
// type the provider registers has a row here (TestRegistryComplete).

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// badInput is one invalid configuration of one block.
type badInput struct {
	// kind is the block: "provider", "resource", "data", "ephemeral",
	// "action" or "list"; typ its type (empty for the provider).
	kind, typ string
	// args are the argument lines of the case; each replaces the valid
	// line of the same argument, if any.
	args string
	// set is the configuration of a list resource's case (kind "list"),
	// validated through the protocol server: the attributes set, the
	// others null.
	set map[string]tftypes.Value
	// unset lists valid arguments the case removes.
	unset []string
	// attr is the attribute Terraform must point at: the source line it
	// shows under the error starts with it. Empty when the attribute is
	// absent from the configuration (a missing one of two), in which case
	// the message itself must name it.
	attr string
	// want is the message (a regexp whose spaces also match Terraform's
	// line breaks).
	want string
}

// validArgs are valid arguments of each block, in the order written.
var validArgs = map[string][]string{
	"provider": nil, // the emulator's provider block
	"resource platform_crypto_withdrawal": {
		`profile_id = "profile-1"`, `destination_address = "` + cwDestination + `"`, `asset = "BTC"`,
		`crypto_network = "BITCOIN"`, `amount = "0.5"`,
	},
	"action platform_crypto_withdrawal": {
		`profile_id = "profile-1"`, `destination_address = "` + cwDestination + `"`, `asset = "BTC"`,
		`crypto_network = "BITCOIN"`, `amount = "0.5"`,
	},
	"resource platform_fiat_deposit_instructions": {`profile_id = "profile-1"`, `fiat_network = "WIRE"`},
	"data platform_fiat_deposit_instructions":     {`id = "instructions-1"`},
	"data platform_fiat_accounts":                 nil,
	"data platform_deposit_addresses":             nil,
	"data platform_reward_claims":                 nil,
	"data platform_stablecoin_conversion":         {`id = "123e4567-e89b-42d3-a456-426614174000"`},
	"data platform_profile_balances":              {`profile_id = "profile-1"`},
	"data platform_transfer":                      {`id = "transfer-1"`},
	"data platform_transfers":                     nil,
	"data platform_transfer_limits":               nil,
	"data platform_top_of_book":                   {`market = "BTCUSD"`},
	"data platform_order_book":                    {`market = "BTCUSD"`},
	"ephemeral platform_access_token":             {`scopes = ["transfer:read_fiat_account"]`},
	"list platform_crypto_withdrawal":             nil,
	"list platform_fiat_deposit_instructions":     nil,
	"resource platform_deposit_address":           {`profile_id = "profile-1"`, `crypto_network = "ETHEREUM"`},
	"list platform_deposit_address":               nil,
	"resource platform_orchestration_rule": {
		`profile_id = "profile-1"`, `source_asset = "USDC"`, `destination_asset = "USDG"`,
		`source = { crypto = { network = "ETHEREUM" } }`,
	},
	"list platform_orchestration_rule": nil,
	"resource platform_crypto_destination_address": {
		`crypto_network = "ETHEREUM"`, `address = "0xe4b0ACa9Fb669817775274775b20e52118595515"`,
	},
	"data platform_crypto_destination_addresses": nil,
	"list platform_crypto_destination_address":   nil,
	"resource platform_profile":                  {`nickname = "Treasury"`},
	"list platform_profile":                      nil,
	"resource platform_fiat_account": {
		`fiat_account_owner = { person_details = { first_name = "Ada", last_name = "Lovelace" } }`,
		`fiat_network_instructions = { wire = { account_number = "12345678", fiat_account_owner_address = { country = "USA" }, ` +
			`routing_details = { routing_number_type = "ABA", routing_number = "031302971", bank_name = "Customers Bank", ` +
			`bank_address = { country = "USA" } } } }`,
	},
	"list platform_fiat_account": nil,
	"resource platform_fiat_withdrawal": {
		`profile_id = "profile-1"`, `fiat_account_id = "fa-1"`, `asset = "USD"`, `amount = "100"`,
	},
	"action platform_fiat_withdrawal": {
		`profile_id = "profile-1"`, `fiat_account_id = "fa-1"`, `asset = "USD"`, `amount = "100"`,
	},
	"list platform_fiat_withdrawal": nil,
	"resource platform_internal_transfer": {
		`from_profile_id = "profile-1"`, `to_profile_id = "profile-2"`, `asset = "USD"`, `amount = "100"`,
	},
	"action platform_internal_transfer": {
		`from_profile_id = "profile-1"`, `to_profile_id = "profile-2"`, `asset = "USD"`, `amount = "100"`,
	},
	"list platform_internal_transfer": nil,
	"resource platform_stablecoin_conversion": {
		`profile_id = "profile-1"`, `source_asset = "USD"`, `target_asset = "USDC"`, `amount = "100"`,
	},
	"action platform_stablecoin_conversion": {
		`profile_id = "profile-1"`, `source_asset = "USD"`, `target_asset = "USDC"`, `amount = "100"`,
	},
	"action platform_stablecoin_conversion_cancel": {`id = "conversion-1"`},
}

// flowBadInputs are the invalid arguments of the money flows, as a
// resource or an action (kind).
func flowBadInputs(kind string) []badInput {
	var cases []badInput
	decimal := `must be a decimal number written with digits and at most one dot`
	for typ, required := range map[string][]string{
		"platform_fiat_withdrawal":       {"profile_id", "fiat_account_id"},
		"platform_internal_transfer":     {"from_profile_id"},
		"platform_stablecoin_conversion": {"profile_id"},
	} {
		add := func(args, attr, want string, unset ...string) {
			cases = append(cases, badInput{kind: kind, typ: typ, args: args, attr: attr, want: want, unset: unset})
		}
		for _, name := range required {
			add(name+` = ""`, name, `Attribute `+name+` string length must be at least 1`)
		}
		add(`amount = "0"`, "amount", `Attribute amount `+decimal+`.*, above zero`)
		add(`amount = "`+strings.Repeat("0", 70)+`5"`, "amount", `Attribute amount `+decimal+`.*got "0{64}"… \(71 characters\)`)
		add(`amount = "1e5"`, "amount", `Attribute amount `+decimal)
		add(`amount = "100.005"`, "amount", `amount "100.005" has 3 decimals, and the smallest unit of USD has 2`)
		add(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`)
		add(`identity_id = ""`, "identity_id", `Attribute identity_id string length must be at least 1`)
		add(`metadata = `+hclMap(7, 0, 0), "metadata", `Attribute metadata map must contain at most 6 elements, got: 7`)
		switch typ {
		case "platform_fiat_withdrawal":
			add(`asset = "US D"`, "asset", `Attribute asset must be an asset code of 1 to 20 letters and digits`)
			add(`total = "2"`, "amount", `2 attributes specified when one \(and only one\) of \[amount,total\] is required`)
			add(`total = "-2"`, "total", `Attribute total `+decimal, "amount")
		case "platform_internal_transfer":
			add(`to_profile_id = "profile-1"`, "to_profile_id", `to_profile_id must differ from from_profile_id`)
		case "platform_stablecoin_conversion":
			add(`target_asset = "USD"`, "target_asset", `target_asset must differ from source_asset`)
			add(`source_asset = ""`, "source_asset", `Attribute source_asset must be an asset code`)
		}
	}
	if kind == "action" {
		cases = append(cases, badInput{kind: kind, typ: "platform_stablecoin_conversion_cancel", args: `id = ""`,
			attr: "id", want: `Attribute id string length must be at least 1`})
	}
	return cases
}

// actionBadInputs are the invalid arguments of every action.
func actionBadInputs() []badInput {
	return slices.Concat(withdrawalBadInputs("action"), flowBadInputs("action"))
}

// argName is the argument a line sets.
func argName(line string) string {
	return strings.TrimSpace(strings.SplitN(line, "=", 2)[0])
}

// body returns the argument lines of the case's block.
func (c badInput) body() string {
	set := map[string]bool{}
	for _, l := range strings.Split(c.args, "\n") {
		if strings.TrimSpace(l) != "" {
			set[argName(l)] = true
		}
	}
	for _, u := range c.unset {
		set[u] = true
	}
	var lines []string
	for _, l := range validArgs[c.block()] {
		if !set[argName(l)] {
			lines = append(lines, l)
		}
	}
	for _, l := range strings.Split(c.args, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return "    " + strings.Join(lines, "\n    ") + "\n"
}

func (c badInput) block() string {
	if c.kind == "provider" {
		return "provider"
	}
	return c.kind + " " + c.typ
}

// hclList is an HCL list of n distinct strings.
func hclList(n int) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf("%q", fmt.Sprintf("v%d", i))
	}
	return "[" + strings.Join(vals, ", ") + "]"
}

// hclMap is an HCL map of n pairs, or of one pair with a key or value of
// the given lengths.
func hclMap(n, keyLen, valueLen int) string {
	if n > 1 {
		pairs := make([]string, n)
		for i := range pairs {
			pairs[i] = fmt.Sprintf("k%d = \"v\"", i)
		}
		return "{ " + strings.Join(pairs, ", ") + " }"
	}
	return fmt.Sprintf("{ %s = %q }", strings.Repeat("k", keyLen), strings.Repeat("v", valueLen))
}

// withdrawalBadInputs are the invalid arguments of a withdrawal, shared by
// the resource and the action.
func withdrawalBadInputs(kind string) []badInput {
	c := func(args, attr, want string, unset ...string) badInput {
		return badInput{kind: kind, typ: "platform_crypto_withdrawal", args: args, attr: attr, want: want, unset: unset}
	}
	decimal := `must be a decimal number written with digits and at most one dot`
	return []badInput{
		c(`profile_id = ""`, "profile_id", `Attribute profile_id string length must be at least 1`),
		c(`destination_address = ""`, "destination_address", `Attribute destination_address string length must be at least 1`),
		c(`asset = ""`, "asset", `Attribute asset must be an asset code of 1 to 20 letters and digits`),
		c(`asset = "BTC "`, "asset", `Attribute asset must be an asset code of 1 to 20 letters and digits`),
		c(`amount = "0"`, "amount", `Attribute amount `+decimal+`, such as .0\.5., of at most 64 characters .*, above zero`),
		c(`amount = "`+strings.Repeat("0", 70)+`5"`, "amount", `Attribute amount `+decimal+`.*got "0{64}"… \(71 characters\)`),
		c(`crypto_network = ""`, "crypto_network", `Attribute crypto_network string length must be at least 1`),
		c(`crypto_network = "ETHERUM"`, "crypto_network", `crypto_network is "ETHERUM", which is not a crypto network the `+
			`service publishes: did you mean "ETHEREUM"\? crypto_network must be one of BITCOIN, ETHEREUM,`),
		c(`crypto_network = "bitcoin"`, "crypto_network", `did you mean "BITCOIN"\?`),
		c(`crypto_network = "MONAD"`, "crypto_network", `crypto_network is "MONAD", which is not a crypto network the `+
			`service publishes\. crypto_network must be one of BITCOIN,`),
		c("crypto_network = \"ETHEREUM\"\ndestination_address = \"0x"+strings.Repeat("7", 39)+"\"", "destination_address",
			`destination_address an address on ETHEREUM is 0x followed by 40 hexadecimal digits, got "0x7{39}"`),
		c(`destination_address = "bc1q example"`, "destination_address", `destination_address must not contain whitespace`),
		c(`amount = "0.123456789"`, "amount", `amount "0.123456789" has 9 decimals, and the smallest unit of BTC has 8: `+
			`the service refuses it, and nothing is sent\. Round it to at most 8 decimals\.`),
		c(`total = "1.000000001"`, "total", `total "1.000000001" has 9 decimals, and the smallest unit of BTC has 8`, "amount"),
		c(`amount = "1e5"`, "amount", `Attribute amount `+decimal),
		c(`amount = "-1"`, "amount", `Attribute amount `+decimal),
		c(`amount = "0.5.1"`, "amount", `Attribute amount `+decimal),
		c(`amount = ""`, "amount", `Attribute amount `+decimal),
		c(`amount = "1,5"`, "amount", `Attribute amount `+decimal),
		c("total = \"2 \"", "total", `Attribute total `+decimal, "amount"),
		c(`total = "1."`, "total", `Attribute total `+decimal, "amount"),
		c(`total = "2"`, "amount", `2 attributes specified when one \(and only one\) of \[amount,total\] is required`),
		c(``, "", `No attribute specified when one \(and only one\) of \[amount,total\] is required`, "amount"),
		c(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`),
		c(`identity_id = ""`, "identity_id", `Attribute identity_id string length must be at least 1`),
		c(`account_id = ""`, "account_id", `Attribute account_id string length must be at least 1`),
		c(`balance_asset = ""`, "balance_asset", `Attribute balance_asset string length must be at least 1`),
		c(`fee_id = ""`, "fee_id", `Attribute fee_id string length must be at least 1`),
		c(`metadata = `+hclMap(7, 0, 0), "metadata", `Attribute metadata map must contain at most 6 elements, got: 7`),
		c(`metadata = `+hclMap(1, 101, 1), "metadata", `Attribute metadata\["k{101}"\] string length must be at most 100, got: 101`),
		c(`metadata = `+hclMap(1, 1, 101), "metadata", `Attribute metadata\["k"\] string length must be at most 100, got: 101`),
		c(`beneficiary = jsonencode(["Ada"])`, "beneficiary", `beneficiary must be a JSON object`),
		c(`beneficiary = "{name:"`, "beneficiary", `Invalid JSON String Value`),
	}
}

// resourceAndDataBadInputs are the cases that Terraform rejects while
// validating the configuration, before the provider is configured.
func resourceAndDataBadInputs() []badInput {
	var cases []badInput
	add := func(kind, typ, args, attr, want string) {
		cases = append(cases, badInput{kind: kind, typ: typ, args: args, attr: attr, want: want})
	}
	p := func(args, attr, want string) { add("provider", "", args, attr, want) }
	p(`client_id = ""`, "client_id", `Attribute client_id string length must be at least 1`)
	p(`client_secret = ""`, "client_secret", `Attribute client_secret string length must be at least 1`)
	p(`scopes = []`, "scopes", `Attribute scopes list must contain at least 1 elements, got: 0`)
	p(`scopes = [""]`, "scopes", `Attribute scopes\[0\] string length must be at least 1`)
	p(`scopes = ["rewards:read_claims", "rewards:read_claims"]`, "scopes", `This attribute contains duplicate values of: "rewards:read_claims"`)
	p(`scopes = ["rewards:read_claims", null]`, "scopes", `Null List Value.*This attribute contains a null value`)
	p(`request_timeout = "soon"`, "request_timeout", `Invalid Time Duration String Value.*Given Value: soon`)
	p(`request_timeout = "0s"`, "request_timeout", `request_timeout must be a Go duration .*greater than zero, got "0s"`)
	p(`request_timeout = "-5s"`, "request_timeout", `request_timeout must be a Go duration .*greater than zero, got "-5s"`)
	p(`max_retries = 11`, "max_retries", `Attribute max_retries value must be between 0 and 10, got: 11`)
	p(`max_retries = -1`, "max_retries", `Attribute max_retries value must be between 0 and 10, got: -1`)

	cases = append(cases, withdrawalBadInputs("resource")...)
	cases = append(cases, flowBadInputs("resource")...)

	fdi := func(args, attr, want string) { add("resource", "platform_fiat_deposit_instructions", args, attr, want) }
	fdi(`profile_id = ""`, "profile_id", `Attribute profile_id string length must be at least 1`)
	fdi(`fiat_network = "ACH"`, "fiat_network", `fiat_network is "ACH", which is not a fiat network the service `+
		`publishes\. fiat_network must be one of WIRE, DBS_ACT, CUBIX, SCB, RTP\.`)
	fdi(`fiat_network = "WIRES"`, "fiat_network", `fiat_network is "WIRES", .*: did you mean "WIRE"\?`)
	fdi(`fiat_network = ""`, "fiat_network", `fiat_network is "", which is not a fiat network the service publishes`)
	fdi(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`)
	fdi(`identity_id = ""`, "identity_id", `Attribute identity_id string length must be at least 1`)
	fdi(`account_id = ""`, "account_id", `Attribute account_id string length must be at least 1`)
	fdi(`routing_number_type = "IBAN"`, "routing_number_type", `Attribute routing_number_type value must be one of: \["ABA" "SWIFT"\], got: "IBAN"`)
	fdi(`metadata = `+hclMap(7, 0, 0), "metadata", `Attribute metadata map must contain at most 6 elements, got: 7`)
	fdi(`metadata = `+hclMap(1, 101, 1), "metadata", `Attribute metadata\["k{101}"\] string length must be at most 100, got: 101`)
	fdi(`metadata = `+hclMap(1, 1, 101), "metadata", `Attribute metadata\["k"\] string length must be at most 100, got: 101`)

	add("data", "platform_fiat_deposit_instructions", `id = ""`, "id", `Attribute id string length must be at least 1`)
	add("data", "platform_profile_balances", `profile_id = ""`, "profile_id", `Attribute profile_id string length must be at least 1`)

	or := func(args, attr, want string) { add("resource", "platform_orchestration_rule", args, attr, want) }
	or(`profile_id = ""`, "profile_id", `Attribute profile_id string length must be at least 1`)
	or(`source_asset = "BTC"`, "source_asset", `Attribute source_asset value must be one of: .*"USDC".*got: "BTC"`)
	or(`destination_asset = "EUR"`, "destination_asset", `Attribute destination_asset value must be one of: .*"USDG".*got: "EUR"`)
	or(`source = { crypto = { network = "BITCOIN" } }`, "source", `Attribute source.crypto.network value must be one of: .*"ETHEREUM".*got: "BITCOIN"`)
	or(`source = { fiat = { network = "WIRE", account_type = "IBAN" } }`, "source", `Attribute source.fiat.account_type value must be one of: \["SWIFT" "ABA"\], got: "IBAN"`)
	or(`source = { crypto = { network = "ETHEREUM" }, fiat = { network = "WIRE", account_type = "ABA" } }`, "source",
		`Invalid Attribute Combination.*2 attributes specified when one \(and only one\) of \[source.crypto`)
	or(`destination = {}`, "destination", `No attribute specified when one \(and only one\) of \[destination.crypto`)
	or(`nickname = ""`, "nickname", `Attribute nickname string length must be at least 1`)
	or(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`)
	or(`wait_for_active = "soon"`, "wait_for_active", `Attribute wait_for_active must be a duration of hours, minutes and seconds`)

	da := func(args, attr, want string) { add("resource", "platform_deposit_address", args, attr, want) }
	da(`profile_id = ""`, "profile_id", `Attribute profile_id string length must be at least 1`)
	da(`crypto_network = ""`, "crypto_network", `Attribute crypto_network string length must be at least 1`)
	da(`crypto_network = "SOLANAA"`, "crypto_network", `crypto_network is "SOLANAA", .*: did you mean "SOLANA"\?`)
	da(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`)
	da(`identity_id = ""`, "identity_id", `Attribute identity_id string length must be at least 1`)
	da(`account_id = ""`, "account_id", `Attribute account_id string length must be at least 1`)
	da(`conversion_target_asset = "EUR"`, "conversion_target_asset",
		`Attribute conversion_target_asset value must be one of: \["NO_CONVERSION" "USD"\], got: "EUR"`)
	da(`metadata = `+hclMap(7, 0, 0), "metadata", `Attribute metadata map must contain at most 6 elements, got: 7`)
	da(`metadata = `+hclMap(1, 101, 1), "metadata", `Attribute metadata\["k{101}"\] string length must be at most 100, got: 101`)
	da(`metadata = `+hclMap(1, 1, 101), "metadata", `Attribute metadata\["k"\] string length must be at most 100, got: 101`)
	fa := func(args, attr, want string) { add("resource", "platform_fiat_account", args, attr, want) }
	wire := func(inner string) string {
		return `fiat_network_instructions = { wire = { account_number = "12345678", fiat_account_owner_address = ` +
			`{ country = "USA" }, routing_details = { ` + inner + ` } } }`
	}
	fa(`fiat_account_owner = { person_details = { first_name = "Ada", last_name = "Lovelace" }, institution_details = { name = "X" } }`,
		"", `Invalid Attribute Combination`)
	fa(`fiat_account_owner = {}`, "", `Invalid Attribute Combination`)
	fa(`fiat_account_owner = { person_details = { first_name = "", last_name = "Lovelace" } }`, "",
		`fiat_account_owner.person_details.first_name string length must be at least 1`)
	fa(wire(`routing_number_type = "IBAN", routing_number = "1", bank_name = "B", bank_address = { country = "USA" }`),
		"", `routing_number_type value must be one of: \["ABA" "SWIFT"\], got: "IBAN"`)
	fa(wire(`routing_number_type = "ABA", routing_number = "1", bank_name = "B", bank_address = { country = "US@" }`),
		"", `bank_address.country must hold only letters, digits, spaces`)
	fa(wire(`routing_number_type = "ABA", routing_number = "1", bank_name = "B", bank_address = { country = "`+strings.Repeat("A", 36)+`" }`),
		"", `bank_address.country string length must be between 1 and 35, got: 36`)
	fa(`fiat_network_instructions = { cbit = { wallet_address = "w" }, scb = { account_number = "123456" } }`,
		"", `Invalid Attribute Combination`)
	fa(`metadata = `+hclMap(7, 0, 0), "metadata", `Attribute metadata map must contain at most 6 elements, got: 7`)
	fa(`metadata = `+hclMap(1, 1, 101), "metadata", `Attribute metadata\["k"\] string length must be at most 100, got: 101`)
	fa(`ref_id = ""`, "ref_id", `Attribute ref_id string length must be at least 1`)

	// The filters shared by the lists.
	rfc := `must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z`
	rfcType := `Invalid RFC3339 String Value.*Given Value:`
	arrays := func(typ string, names ...string) {
		for _, n := range names {
			add("data", typ, n+" = "+hclList(101), n, `Attribute `+n+` list must contain at most 100 elements, got: 101`)
			add("data", typ, n+` = ["a", ""]`, n, `Attribute `+n+`\[1\] string length must be at least 1, got: 0`)
			add("data", typ, n+` = ["a", null]`, n, `Null List Value.*This attribute contains a null value`)
		}
	}
	createdAt := func(typ string) {
		for _, b := range []string{"lt", "lte", "eq", "gte", "gt"} {
			// Terraform points at the block for a bound inside the object;
			// the message names the bound.
			add("data", typ, `created_at = { `+b+` = "yesterday" }`, "", `created_at.`+b+` `+rfc+`, got "yesterday"`)
		}
		add("data", typ, `created_at = { gt = "2024-01-01" }`, "", `created_at.gt `+rfc+`, got "2024-01-01"`)
		add("data", typ, `created_at = { lt = "2024-13-01T00:00:00Z" }`, "", `created_at.lt `+rfc+`, got "2024-13-01T00:00:00Z"`)
	}
	common := func(typ string) {
		add("data", typ, `order = "UP"`, "order", `Attribute order value must be one of: \["DESC" "ASC"\], got: "UP"`)
		add("data", typ, `order = "asc"`, "order", `Attribute order value must be one of: \["DESC" "ASC"\], got: "asc"`)
	}
	maxItems := func(typ string) {
		add("data", typ, `max_items = 0`, "max_items", `Attribute max_items value must be at least 1, got: 0`)
		add("data", typ, `max_items = -3`, "max_items", `Attribute max_items value must be at least 1, got: -3`)
	}

	arrays("platform_fiat_accounts", "ids", "ref_ids")
	createdAt("platform_fiat_accounts")
	common("platform_fiat_accounts")
	maxItems("platform_fiat_accounts")

	arrays("platform_deposit_addresses", "profile_ids", "identity_ids", "ids", "ref_ids", "account_ids", "networks")
	add("data", "platform_deposit_addresses", `networks = ["BITCOIN", "ETHERUM"]`, "networks",
		`networks\[1\] is "ETHERUM", which is not a crypto network the service publishes: did you mean "ETHEREUM"\?`)
	createdAt("platform_deposit_addresses")
	common("platform_deposit_addresses")
	maxItems("platform_deposit_addresses")

	claims := func(args, attr, want string) { add("data", "platform_reward_claims", args, attr, want) }
	claims(`payout_group_id = ""`, "payout_group_id", `Attribute payout_group_id string length must be at least 1`)
	claims(`chain = ""`, "chain", `Attribute chain string length must be at least 1`)
	claims(`jurisdiction = ""`, "jurisdiction", `Attribute jurisdiction string length must be at least 1`)
	arrays("platform_reward_claims", "onchain_statuses")
	claims(`onchain_statuses = ["DONE"]`, "onchain_statuses",
		`Attribute onchain_statuses\[0\] value must be one of: \["PENDING" "SUBMITTED" "CONFIRMED" "FAILED"\]`)
	claims(`start_time = "last week"`, "start_time", rfcType+` last week`)
	claims(`end_time = "2024-02-30T00:00:00Z"`, "end_time", rfcType+` 2024-02-30T00:00:00Z`)
	claims("start_time = \"2024-03-01T00:00:00Z\"\nend_time = \"2024-02-01T00:00:00Z\"", "start_time",
		`Invalid time window.*start_time \(2024-03-01T00:00:00Z\) is after end_time \(2024-02-01T00:00:00Z\)`)
	maxItems("platform_reward_claims")

	conv := func(args, attr, want string) { add("data", "platform_stablecoin_conversion", args, attr, want) }
	conv(`id = "conversion-1"`, "id", `Attribute id must be a UUID such as 123e4567-e89b-42d3-a456-426614174000, got: conversion-1`)
	conv(`id = ""`, "id", `Attribute id must be a UUID`)

	add("data", "platform_transfer", `id = ""`, "id", `Attribute id string length must be at least 1`)
	arrays("platform_transfers", "ids", "ref_ids", "profile_ids", "identity_ids", "account_ids", "group_ids",
		"crypto_tx_hashes", "types", "statuses")
	add("data", "platform_transfers", `statuses = ["DONE"]`, "statuses",
		`Attribute statuses\[0\] value must be one of: \["PENDING" "COMPLETED" "FAILED"\], got: "DONE"`)
	createdAt("platform_transfers")
	add("data", "platform_transfers", "ids = [\"a\"]\nprofile_ids = [\"p\"]", "ids",
		`ids can be combined with the created_at and updated_at filters only, not with profile_ids`)
	add("data", "platform_transfers", "types = [\"CRYPTO_WITHDRAWAL\"]\nstatuses = [\"FAILED\"]", "types",
		`types can be combined with the created_at and updated_at filters only, not with statuses`)
	add("data", "platform_transfers", "order_by = \"CREATED_AT\"\nupdated_at = { gt = \"2026-01-01T00:00:00Z\" }", "order_by",
		`order_by = "CREATED_AT" cannot go with the updated_at filter`)
	add("data", "platform_transfers", `updated_at = { gte = "yesterday" }`, "", `updated_at.gte `+rfc+`, got "yesterday"`)
	common("platform_transfers")
	add("data", "platform_transfers", `order_by = "AMOUNT"`, "order_by",
		`Attribute order_by value must be one of: \["CREATED_AT" "UPDATED_AT"\], got: "AMOUNT"`)
	maxItems("platform_transfers")
	add("data", "platform_transfer_limits", `transfer_type = "crypto_withdrawal"`, "transfer_type",
		`Attribute transfer_type value must be one of: \["INTERNAL_TRANSFER_DEBIT".*got: "crypto_withdrawal"`)

	for _, typ := range []string{"platform_top_of_book", "platform_order_book"} {
		add("data", typ, `market = ""`, "market", `Attribute market string length must be at least 1`)
		add("data", typ, `timeout = "soon"`, "timeout", `Invalid Time Duration String Value.*Given Value: soon`)
		add("data", typ, `timeout = "0s"`, "timeout", `timeout must be a Go duration .*got "0s"`)
		add("data", typ, `timeout = "-1s"`, "timeout", `timeout must be a Go duration .*got "-1s"`)
		add("data", typ, `timeout = "6m"`, "timeout", `timeout must be a Go duration .*at most 5m0s, got "6m"`)
	}
	add("data", "platform_order_book", `depth = 0`, "depth", `Attribute depth value must be between 1 and 1000, got: 0`)
	add("data", "platform_order_book", `depth = 1001`, "depth", `Attribute depth value must be between 1 and 1000, got: 1001`)

	add("resource", "platform_profile", `nickname = ""`, "nickname", `Attribute nickname string length must be at least 1`)
	add("resource", "platform_profile", `nickname = "   "`, "nickname", `Attribute nickname must not be only spaces`)
	add("resource", "platform_profile", `description = ""`, "description", `Attribute description string length must be at least 1`)

	cda := func(args, attr, want string) {
		add("resource", "platform_crypto_destination_address", args, attr, want)
	}
	cda(`address = "0x12"`, "address", `address an address on ETHEREUM is 0x followed by 40 hexadecimal digits, got "0x12"`)
	cda(`address = "0xe4B0aCA9FB6698 17775274775b20e5211859551"`, "address", `address must not contain whitespace`)
	cda(`identity_id = ""`, "identity_id", `Attribute identity_id string length must be at least 1`)
	cda(`nickname = ""`, "nickname", `Attribute nickname string length must be at least 1`)
	cda(`travelrule_metadata = { custodian_type = "BANK" }`, "", `Attribute travelrule_metadata.custodian_type value must be one of: \["VASP" "PRIVATE"\], got: "BANK"`)
	cda(`travelrule_metadata = { vasp = { custom_vasp_name = "X" } }`, "", `travelrule_metadata.vasp.custom_vasp_website.*must be specified when.*travelrule_metadata.vasp.custom_vasp_name`)
	cda(`travelrule_metadata = { beneficiary = { self = true, institution_details = { name = "A" } } }`, "",
		`Attribute "travelrule_metadata.beneficiary.self" cannot be specified when "travelrule_metadata.beneficiary.institution_details" is specified`)
	cda(`travelrule_metadata = { beneficiary = { person_details = { first_name = "A", last_name = "B", physical_address = { country = "US" } } } }`, "",
		`travelrule_metadata.beneficiary.person_details.physical_address.country must be three upper-case letters`)
	arrays("platform_crypto_destination_addresses", "ids", "identity_ids", "crypto_networks", "addresses", "nicknames")
	createdAt("platform_crypto_destination_addresses")
	common("platform_crypto_destination_addresses")
	add("data", "platform_crypto_destination_addresses", `order_by = "NICKNAME"`, "order_by",
		`Attribute order_by value must be one of: \["CREATED_AT"\], got: "NICKNAME"`)
	maxItems("platform_crypto_destination_addresses")

	tok := func(args, want string) { add("ephemeral", "platform_access_token", args, "scopes", want) }
	tok(`scopes = []`, `Attribute scopes list must contain at least 1 elements, got: 0`)
	tok(`scopes = [""]`, `Attribute scopes\[0\] string length must be at least 1, got: 0`)
	tok(`scopes = ["transfer:read_fiat_account rewards:read_claims"]`, `must not contain whitespace`)
	tok(`scopes = ["rewards:read_claims", "rewards:read_claims"]`, `This attribute contains duplicate values of: "rewards:read_claims"`)
	tok(`scopes = ["rewards:read_claims", null]`, `Null List Value.*This attribute contains a null value`)
	return cases
}

// configureBadInputs are provider settings that only Configure can check:
// the URLs (a plain-text scheme is accepted for loopback hosts only).
func configureBadInputs() []badInput {
	p := func(args, attr, want string) badInput {
		return badInput{kind: "provider", args: args, attr: attr, want: want}
	}
	return []badInput{
		p(`base_url = "http://api.example.com/v2"`, "base_url", `Invalid base_url.*base_url \(from the provider block or PLATFORM_BASE_URL\).*https`),
		p(`base_url = "not a url"`, "base_url", `Invalid base_url.*PLATFORM_BASE_URL`),
		p(`base_url = "https://127.0.0.1/v2#frag"`, "base_url", `Invalid base_url.*fragment`),
		p(`base_url = "https://api.example.com"`, "base_url", `Invalid base_url.*PLATFORM_BASE_URL.*version segment /v2.*it has no path`),
		p(`base_url = "https://api.example.com/v1"`, "base_url", `Invalid base_url.*PLATFORM_BASE_URL.*version segment /v2.*its path is "/v1"`),
		p(`auth_url = "ftp://127.0.0.1"`, "auth_url", `Invalid auth_url.*PLATFORM_AUTH_URL`),
		p(`auth_url = "https://user:pass@auth.example.com"`, "auth_url", `Invalid auth_url.*user`),
		p(`ws_url = "ws://stream.example.com/ws"`, "ws_url", `Invalid ws_url.*PLATFORM_WS_URL.*wss`),
		p(`ws_url = "https://127.0.0.1/ws"`, "ws_url", `Invalid ws_url.*PLATFORM_WS_URL`),
	}
}

// listResourceBadInputs are the invalid filters of the list resources
// (`terraform query`), whose configuration the protocol server validates.
func listResourceBadInputs() []badInput {
	var cases []badInput
	strs := func(vals ...any) tftypes.Value {
		elems := make([]tftypes.Value, len(vals))
		for i, v := range vals {
			elems[i] = tftypes.NewValue(tftypes.String, v)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
	}
	many := make([]any, 101)
	for i := range many {
		many[i] = fmt.Sprintf("v%d", i)
	}
	add := func(typ, attr string, v tftypes.Value, want string) {
		cases = append(cases, badInput{kind: "list", typ: typ, attr: attr, set: map[string]tftypes.Value{attr: v}, want: want})
	}
	arrays := func(typ string, names ...string) {
		for _, n := range names {
			add(typ, n, strs(many...), `Attribute `+n+` list must contain at most 100 elements, got: 101`)
			add(typ, n, strs("a", ""), `Attribute `+n+`\[1\] string length must be at least 1, got: 0`)
			add(typ, n, strs("a", nil), `Null List Value.*This attribute contains a null value: `+n+`\[1\] is null`)
		}
	}
	arrays("platform_crypto_withdrawal", "profile_ids", "ref_ids", "statuses")
	add("platform_crypto_withdrawal", "statuses", strs("DONE"),
		`Attribute statuses\[0\] value must be one of: \["PENDING" "COMPLETED" "FAILED"\], got: "DONE"`)
	arrays("platform_fiat_deposit_instructions", "ids", "ref_ids")
	arrays("platform_deposit_address", "profile_ids", "identity_ids", "ids", "ref_ids", "account_ids", "networks")
	arrays("platform_orchestration_rule", "ids", "statuses")
	add("platform_orchestration_rule", "statuses", strs("GONE"),
		`Attribute statuses\[0\] value must be one of: \["ACTIVE" "DELETED" "PENDING" "REJECTED"\], got: "GONE"`)
	arrays("platform_crypto_destination_address", "ids", "addresses")
	arrays("platform_fiat_account", "ids", "ref_ids")
	arrays("platform_profile", "ids")
	arrays("platform_fiat_withdrawal", "profile_ids", "ref_ids", "statuses")
	arrays("platform_internal_transfer", "profile_ids", "ref_ids", "statuses")
	return cases
}

// TestBadInputListResources validates every invalid filter of every list
// resource through the protocol server, as `terraform query` does, and
// checks that each is refused with its message on its attribute, before
// any request.
func TestBadInputListResources(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	emu.Counters.Reset()
	for _, c := range listResourceBadInputs() {
		ids, diags := listThroughProtocol(t, h, c.typ, c.set)
		var errs []string
		ok, elsewhere := false, false
		for _, d := range diags {
			if d.Severity != tfprotov6.DiagnosticSeverityError {
				continue
			}
			errs = append(errs, fmt.Sprintf("%s: %s (at %v)", d.Summary, d.Detail, d.Attribute))
			// The error is on the attribute, or on one of its elements.
			if d.Attribute == nil || len(d.Attribute.Steps()) == 0 || d.Attribute.Steps()[0] != tftypes.AttributeName(c.attr) {
				elsewhere = true
				continue
			}
			if wrappedRe(c.want).MatchString(d.Summary + "\n\n" + d.Detail) {
				ok = true
			}
		}
		if !ok || elsewhere {
			t.Errorf("%s with %s: listed %d, errors %q; want an error matching %q, every error on %s", c.block(), c.attr, len(ids), errs, c.want, c.attr)
		}
	}
	if n := emu.Counters.APIRequests(); n != 0 {
		t.Errorf("the emulator saw %d API requests; want none", n)
	}
}

// caseConfig writes every case as a block of its own: provider cases as
// aliases named case_N (each with a data source that uses it), the others
// as blocks named case_N. It returns the configuration and, by case, the
// address Terraform names in its diagnostics.
func caseConfig(emu *emulator.Server, cases []badInput, withDefaultProvider bool) (string, []string) {
	var b strings.Builder
	if withDefaultProvider {
		b.WriteString(emulatorProviderBlock(emu, ""))
	}
	addrs := make([]string, len(cases))
	for i, c := range cases {
		name := fmt.Sprintf("case_%d", i)
		switch c.kind {
		case "provider":
			block := emulatorProviderBlock(emu, "  alias = \""+name+"\"\n")
			for _, l := range strings.Split(c.args, "\n") {
				n := argName(l)
				if re := regexp.MustCompile(`(?m)^  ` + n + ` +=.*\n`); re.MatchString(block) {
					block = re.ReplaceAllString(block, "")
				}
				block = strings.Replace(block, "\n}", "\n  "+strings.TrimSpace(l)+"\n}", 1)
			}
			b.WriteString(block)
			fmt.Fprintf(&b, "data \"platform_fiat_deposit_instructions\" %q {\n  provider = platform.%s\n  id = \"instructions-1\"\n}\n", name, name)
			addrs[i] = `provider\[".*platform"\]\.` + name
		case "action":
			fmt.Fprintf(&b, "action %q %q {\n  config {\n%s  }\n}\n", c.typ, name, c.body())
			addrs[i] = regexp.QuoteMeta("action." + c.typ + "." + name)
		default:
			fmt.Fprintf(&b, "%s %q %q {\n%s}\n", c.kind, c.typ, name, strings.ReplaceAll(c.body(), "    ", "  "))
			prefix := c.kind + "."
			if c.kind == "resource" {
				prefix = ""
			}
			addrs[i] = regexp.QuoteMeta(prefix + c.typ + "." + name)
		}
	}
	return b.String(), addrs
}

// terraformDiag is one error as Terraform prints it.
type terraformDiag struct {
	text, addr, line string
}

var (
	diagStart = regexp.MustCompile(`(?m)^Error: `)
	diagWith  = regexp.MustCompile(`(?m)^\s*with (\S+),$`)
	diagLine  = regexp.MustCompile(`(?m)^\s*\d+:\s*(.*)$`)
)

// splitDiags splits Terraform's error output into its errors.
func splitDiags(out string) []terraformDiag {
	idx := diagStart.FindAllStringIndex(out, -1)
	diags := make([]terraformDiag, 0, len(idx))
	for i, loc := range idx {
		end := len(out)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		d := terraformDiag{text: out[loc[0]:end]}
		if len(diags) > 0 && diagWith.FindStringSubmatch(d.text) == nil {
			// A line of a detail that starts with "Error:" (as the
			// timetypes' details do), not a diagnostic of its own.
			diags[len(diags)-1].text += d.text
			continue
		}
		if m := diagWith.FindStringSubmatch(d.text); m != nil {
			d.addr = m[1]
		}
		if m := diagLine.FindStringSubmatch(d.text); m != nil {
			d.line = strings.TrimSpace(m[1])
		}
		diags = append(diags, d)
	}
	return diags
}

// checkBadInputs checks that the output of one failed plan holds, for
// every case, an error on the case's block that points at its attribute
// and says what is wrong, and no error on anything else.
func checkBadInputs(t *testing.T, out string, cases []badInput, addrs []string) {
	t.Helper()
	diags := splitDiags(out)
	if len(diags) == 0 {
		t.Fatalf("no error in the output:\n%s", out)
	}
	claimed := make([]bool, len(diags))
	for i, c := range cases {
		addrRe := regexp.MustCompile(`^` + addrs[i] + `$`)
		msgRe := wrappedRe(c.want)
		var mine []string
		ok := false
		for j, d := range diags {
			if !addrRe.MatchString(d.addr) {
				continue
			}
			claimed[j] = true
			mine = append(mine, d.text)
			if !msgRe.MatchString(d.text) {
				continue
			}
			if c.attr != "" && !regexp.MustCompile(`^`+regexp.QuoteMeta(c.attr)+`\s*=`).MatchString(d.line) {
				continue
			}
			ok = true
		}
		if !ok {
			t.Errorf("%s %s with %q: no error matching %q on line %q; its errors:\n%s",
				c.block(), addrs[i], c.args, c.want, c.attr, strings.Join(mine, "\n"))
		}
	}
	for j, d := range diags {
		if !claimed[j] {
			t.Errorf("an error that belongs to no case:\n%s", d.text)
		}
	}
}

// runBadInputs plans the cases in one configuration and checks the errors.
func runBadInputs(t *testing.T, env *accEnv, cases []badInput, withDefaultProvider bool, checks []tfversion.TerraformVersionCheck) {
	t.Helper()
	cfg, addrs := caseConfig(env.emu, cases, withDefaultProvider)
	var out string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   checks,
		ErrorCheck: func(err error) error {
			out = err.Error()
			return nil // checked case by case below
		},
		Steps: []resource.TestStep{{Config: cfg, PlanOnly: true}},
	})
	if t.Skipped() {
		return
	}
	if out == "" {
		t.Fatalf("the plan of %d invalid blocks succeeded", len(cases))
	}
	checkBadInputs(t, out, cases, addrs)
}

// TestAccBadInput_rejectedAtPlan plans every invalid argument of every
// resource, data source, ephemeral resource and action, and of the provider
// block, each in a block of its own, and checks that each block is rejected
// with its message, pointing at its attribute, and that the emulator saw no
// request, no token request and not even a connection.
//
// Terraform validates every block before it configures a provider and
// reports every error, so one plan checks all the cases that validation
// catches; the URL checks of Configure need a second plan; the action
// block needs Terraform 1.14 or later and a third.
func TestAccBadInput_rejectedAtPlan(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)

	t.Run("validation", func(t *testing.T) {
		runBadInputs(t, env, resourceAndDataBadInputs(), true, nil)
	})
	t.Run("configure", func(t *testing.T) {
		runBadInputs(t, env, configureBadInputs(), false, nil)
	})
	t.Run("action", func(t *testing.T) {
		runBadInputs(t, env, actionBadInputs(), true,
			[]tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)})
	})

	c := env.emu.Counters
	if n, tokens, conns := c.APIRequests(), c.TotalTokens(), c.Connections(); n+tokens+conns != 0 {
		t.Errorf("the emulator saw %d API requests, %d token requests and %d connections; want none", n, tokens, conns)
	}
}
