package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// This file holds what describes the arguments of a crypto withdrawal
// independently of the kind of schema that carries them: their names,
// descriptions and plan-time validators, the model of the arguments and
// their conversion to a client request. The platform_crypto_withdrawal
// resource renders them as resource attributes; an action that sends a
// withdrawal can render the same list as action attributes.

// withdrawalArgKind is the type of a withdrawal argument.
type withdrawalArgKind int

const (
	withdrawalArgString withdrawalArgKind = iota
	withdrawalArgStringMap
	withdrawalArgJSON
)

// withdrawalArgument describes one argument of Create Crypto Withdrawal.
type withdrawalArgument struct {
	name        string
	description string
	required    bool
	kind        withdrawalArgKind
	// computedWhenUnset: a resource records the value the service answered
	// when the configuration leaves the argument unset.
	computedWhenUnset bool
	// notReported: a transfer does not carry it, so an imported withdrawal
	// cannot know it.
	notReported bool
	// applyOnly: it is not sent and not part of the derived ref_id; it
	// only rules how the withdrawal is sent, so changing it on a
	// withdrawal already sent only records it.
	applyOnly        bool
	stringValidators []validator.String
	mapValidators    []validator.Map
}

// metadataDescription is the description of a metadata argument.
func metadataDescription(what string) string {
	return fmt.Sprintf("Client-specified key/value pairs attached to %s: at most %d pairs, each key and "+
		"value at most %d characters.", what, client.MaxMetadataPairs, client.MaxMetadataLength)
}

// withdrawalArguments lists every argument of a crypto withdrawal, in the
// order of the spec's request table.
func withdrawalArguments() []withdrawalArgument {
	nonEmpty := stringvalidator.LengthAtLeast(1)
	return []withdrawalArgument{
		{name: "profile_id", required: true, description: "Profile to withdraw from.",
			stringValidators: []validator.String{nonEmpty}},
		{name: "destination_address", required: true, description: "Crypto address the withdrawal is sent to.",
			stringValidators: []validator.String{nonEmpty, networkAddressShape{network: path.Root("crypto_network")}}},
		{name: "asset", required: true, description: "Asset to withdraw, for example `BTC`: letters and digits.",
			stringValidators: []validator.String{assetValidator{}}},
		{name: "crypto_network", required: true,
			description: "Network to send the withdrawal on, for example " + codeList(client.CryptoNetworks) +
				". The service adds networks over time: a network this provider version does not know is a " +
				"warning at plan, not an error, and the service refuses it if it is wrong (nothing is sent then).",
			stringValidators: []validator.String{stringvalidator.LengthAtLeast(1), cryptoNetworkValues}},
		{name: "amount", computedWhenUnset: true,
			description: "Amount to send, as a decimal string above zero of at most 64 characters (digits and at " +
				"most one dot), sent exactly as written; more decimals than the smallest unit of a well-known asset " +
				"(BTC 8, ETH 18, SOL 9, USDC 6, USD 2) is a warning at plan. Exactly one of `amount` and `total` must be set; " +
				"when `total` is set, `amount` is computed (total minus fee).",
			stringValidators: []validator.String{
				positiveAmountValidator(),
				stringvalidator.ExactlyOneOf(path.MatchRoot("amount"), path.MatchRoot("total")),
				amountPrecisionOf("asset"),
			}},
		{name: "total", computedWhenUnset: true,
			description: "Total to debit, fee included, as a decimal string above zero of at most 64 characters, " +
				"sent exactly as written. Exactly one of `amount` and `total` " +
				"must be set; when `amount` is set, `total` is computed (amount plus fee).",
			stringValidators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset")}},
		{name: "ref_id", computedWhenUnset: true,
			description: "Client-specified id that protects the withdrawal against replays: the service " +
				"never sends two withdrawals with the same `ref_id`. When unset, it is derived from the other " +
				"arguments at plan (a name-based UUID of the request, shown in the plan), so every plan and run of " +
				"the same declared withdrawal sends the same `ref_id`; two identical withdrawals in one " +
				"configuration are refused, and sending the same withdrawal again on purpose needs a new `ref_id`.",
			stringValidators: []validator.String{nonEmpty}},
		{name: "identity_id", computedWhenUnset: true, description: "Identity of the user making the withdrawal.",
			stringValidators: []validator.String{nonEmpty}},
		{name: "account_id", computedWhenUnset: true, description: "Account associated with that identity.",
			stringValidators: []validator.String{nonEmpty}},
		{name: "balance_asset", computedWhenUnset: true,
			description:      "Asset balance to debit, for withdrawals of the service-issued USD stablecoin.",
			stringValidators: []validator.String{nonEmpty}},
		{name: "metadata", kind: withdrawalArgStringMap, description: metadataDescription("the withdrawal"),
			mapValidators: metadataValidators()},
		{name: "fee_id", description: "Id of a guaranteed fee.", notReported: true,
			stringValidators: []validator.String{nonEmpty}},
		{name: "beneficiary", kind: withdrawalArgJSON, notReported: true,
			description: "Beneficiary of the withdrawal, as a JSON object (for example written with " +
				"`jsonencode({...})`). It is sent as given. The service marks this inline beneficiary as legacy, " +
				"to be withdrawn: Travel Rule data now belongs on the destination address, in the " +
				"`travelrule_metadata` of a `platform_crypto_destination_address`.",
			stringValidators: []validator.String{jsonObjectValidator{}}},
		{name: "memo", description: "Memo included with the withdrawal."},
		{name: "max_fee", applyOnly: true,
			description: "The most the withdrawal may pay as fee, in its asset, as a decimal string. At apply, " +
				"a guaranteed fee is quoted first (`POST /transfer/fees/crypto-withdrawal`, scope `" +
				client.ScopeWriteWithdrawalFee + "`) for this asset, network, destination and amount (or total), " +
				"and the withdrawal is sent with the quote's `fee_id` only when the quoted fee is at most " +
				"`max_fee`: the fee is then exactly the quote's. A higher quote fails the apply, naming both " +
				"figures, and nothing is sent. A quote that expired before the withdrawal reached the service is " +
				"quoted again once. Not sent itself, and not part of the derived `ref_id`. Conflicts with `fee_id`.",
			stringValidators: []validator.String{
				decimalValidator(),
				stringvalidator.ConflictsWith(path.MatchRoot("fee_id")),
			}},
	}
}

// cryptoWithdrawalArgs are the arguments of a crypto withdrawal.
type cryptoWithdrawalArgs struct {
	ProfileID          types.String         `tfsdk:"profile_id"`
	DestinationAddress types.String         `tfsdk:"destination_address"`
	Asset              types.String         `tfsdk:"asset"`
	CryptoNetwork      types.String         `tfsdk:"crypto_network"`
	Amount             types.String         `tfsdk:"amount"`
	Total              types.String         `tfsdk:"total"`
	RefID              types.String         `tfsdk:"ref_id"`
	IdentityID         types.String         `tfsdk:"identity_id"`
	AccountID          types.String         `tfsdk:"account_id"`
	BalanceAsset       types.String         `tfsdk:"balance_asset"`
	Metadata           types.Map            `tfsdk:"metadata"`
	FeeID              types.String         `tfsdk:"fee_id"`
	Beneficiary        jsontypes.Normalized `tfsdk:"beneficiary"`
	Memo               types.String         `tfsdk:"memo"`
	MaxFee             types.String         `tfsdk:"max_fee"`
}

// request builds the client request of the arguments with the given ref_id
// (which overrides a.RefID). Unknown values are left out.
func (a cryptoWithdrawalArgs) request(ctx context.Context, refID string) (client.CryptoWithdrawalRequest, diag.Diagnostics) {
	var diags diag.Diagnostics
	req := client.CryptoWithdrawalRequest{
		ProfileID:          knownString(a.ProfileID),
		DestinationAddress: knownString(a.DestinationAddress),
		Asset:              knownString(a.Asset),
		CryptoNetwork:      knownString(a.CryptoNetwork),
		RefID:              refID,
		IdentityID:         knownString(a.IdentityID),
		AccountID:          knownString(a.AccountID),
		BalanceAsset:       knownString(a.BalanceAsset),
		FeeID:              knownString(a.FeeID),
		Amount:             knownString(a.Amount),
		Total:              knownString(a.Total),
		Memo:               knownString(a.Memo),
	}
	if !a.Metadata.IsNull() && !a.Metadata.IsUnknown() {
		req.Metadata = map[string]string{}
		diags.Append(a.Metadata.ElementsAs(ctx, &req.Metadata, false)...)
	}
	if !a.Beneficiary.IsNull() && !a.Beneficiary.IsUnknown() {
		req.Beneficiary = json.RawMessage(a.Beneficiary.ValueString())
	}
	return req, diags
}
