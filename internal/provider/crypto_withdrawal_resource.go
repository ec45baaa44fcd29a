package provider

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewCryptoWithdrawalResource is the constructor of platform_crypto_withdrawal.
func NewCryptoWithdrawalResource() resource.Resource {
	t := cryptoWithdrawalFlow.declare()
	return newMoneyResource(&t)
}

// NewCryptoWithdrawalAction is the constructor of the
// platform_crypto_withdrawal action: the action of its flow, which sends
// one withdrawal each time it is invoked, through the resource's send.
func NewCryptoWithdrawalAction() action.Action { return newMoneyAction(&cryptoWithdrawalFlow) }

// NewCryptoWithdrawalListResource is the platform_crypto_withdrawal list
// resource: the transfer list resource of its flow.
func NewCryptoWithdrawalListResource() list.ListResource {
	return newTransferListResource(&cryptoWithdrawalFlow,
		func(_ context.Context, _ *client.Client, t *client.Transfer) *client.Transfer { return t },
		client.TransferTypeCryptoWithdr)
}

// withdrawalWords are the words of a crypto withdrawal's create.
var withdrawalWords = createWords{
	refNamespace: "crypto_withdrawal",
	resourceType: "platform_crypto_withdrawal",
	noun:         "crypto withdrawal",
	made:         "sent",
	path:         client.PathCryptoWithdrawals,
	scope:        client.ScopeWriteCryptoWithdrawal,
}.filled()

// withdrawalObjects is how the core reads crypto withdrawals: transfers,
// looked up at plan by ref_id through List Transfers (scope
// transfer:read_transfer).
var withdrawalObjects = transfersOf(withdrawalWords, client.TransferTypeCryptoWithdr)

// cryptoWithdrawalFlow declares platform_crypto_withdrawal: one crypto
// withdrawal, sent when the resource is created (with max_fee, under a
// guaranteed fee quoted first: sendWithinMaxFee), its transfer read back
// by id (GET /transfer/transfers/{id}, scope transfer:read_transfer) to
// follow its status. There is no endpoint to change or cancel a
// withdrawal: every argument change is a replacement (a new withdrawal),
// except max_fee, which rules only how it is sent, and the arguments the
// service does not report, set on an imported withdrawal; a destroy only
// forgets.
var cryptoWithdrawalFlow = flow[cryptoWithdrawalArgs, client.Transfer, client.CryptoWithdrawalRequest]{
	objects: withdrawalObjects,
	texts: flowTexts{
		description: "Sends one crypto withdrawal (`POST /transfer/crypto-withdrawals`) when it is created.\n\n" +
			"!> **Every change of an argument sends a NEW withdrawal.** The service has no endpoint to change or " +
			"cancel a withdrawal, so Terraform replaces the resource, which sends another withdrawal; the one " +
			"already sent stays sent. Destroying the resource only removes it from the Terraform state: a " +
			"withdrawal cannot be reversed.\n\n" +
			"Each withdrawal carries a `ref_id`, the service's replay protection, fixed before anything is " +
			"sent: configured, or derived at plan from the withdrawal's arguments and shown in the plan. If the " +
			"service does not confirm the withdrawal (a timeout, server errors until the retries run out, or a " +
			"run killed mid-apply), applying the same configuration again sends the same `ref_id`, and when the " +
			"service answers that it already processed it, the provider records that transfer instead of " +
			"sending another. A `ref_id` the service already knows from a different withdrawal is an error, " +
			"and nothing is sent.\n\n" +
			"Each refresh reads the transfer (`GET /transfer/transfers/{id}`, scope `transfer:read_transfer`) and " +
			"follows its `status`, `crypto_tx_hash` and the like, never its arguments: a refresh never plans a new " +
			"withdrawal. A withdrawal made elsewhere is adopted with `terraform import` (or an `import` block, by " +
			"`id` or, with Terraform 1.12+, by `identity`) by its transfer id; nothing is sent.",
		actionDescription: "Sends one crypto withdrawal (`POST /transfer/crypto-withdrawals`) each time it is " +
			"invoked, from a resource's `lifecycle { action_trigger { ... } }` or by hand with " +
			"`terraform apply -invoke=action.platform_crypto_withdrawal.<name>`.",
		idNoun:       "transfer the withdrawal created",
		irreversible: "the service has no endpoint to cancel or reverse a crypto withdrawal, and it stays sent.",
	},
	args: []flowArg[cryptoWithdrawalArgs, client.CryptoWithdrawalRequest, *client.Transfer]{
		{name: "profile_id", required: true, description: "Profile to withdraw from.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.ProfileID },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.ProfileID },
			got:        func(t *client.Transfer) *string { return &t.ProfileID }},
		{name: "destination_address", required: true, description: "Crypto address the withdrawal is sent to. It is " +
			"checked at plan for the shape of its network's addresses and, on `BITCOIN` and the EVM networks, for its " +
			"checksum: bech32 or bech32m (segwit) or base58check (legacy) on `BITCOIN`, EIP-55 for an EVM address " +
			"written in mixed case (all lower case carries none). A new withdrawal, or an action's invocation, to an " +
			"address whose checksum is bad is refused at plan and again at send, and nothing is sent; a withdrawal " +
			"already in the state keeps its address.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1), networkAddressShape{network: path.Root("crypto_network")}},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.DestinationAddress },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.DestinationAddress },
			got:        func(t *client.Transfer) *string { return t.DestinationAddress }},
		{name: "asset", required: true, equal: strings.EqualFold,
			description: "Asset to withdraw, for example `BTC`: letters and digits.",
			validators:  []validator.String{assetValidator{}},
			arg:         func(a *cryptoWithdrawalArgs) *types.String { return &a.Asset },
			req:         func(r *client.CryptoWithdrawalRequest) *string { return &r.Asset },
			got:         func(t *client.Transfer) *string { return &t.Asset }},
		{name: "crypto_network", required: true, equal: strings.EqualFold,
			description: "Network to send the withdrawal on, for example " + codeList(client.CryptoNetworks) +
				": another is an error at plan, which names the nearest network for a typo.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1), cryptoNetworkValues},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.CryptoNetwork },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.CryptoNetwork },
			got:        func(t *client.Transfer) *string { return t.CryptoNetwork }},
		{name: "amount", recordsAnswer: true, equal: decimalEqual,
			description: "Amount to send, as a decimal string above zero of at most 64 characters (digits and at " +
				"most one dot), sent exactly as written; more decimals than the smallest unit of a well-known asset " +
				"(BTC 8, ETH 18, SOL 9, USDC 6, USD 2) is an error at plan. Exactly one of `amount` and `total` must be set; " +
				"when `total` is set, `amount` is computed (total minus fee).",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset"),
				bypass.ExactlyOneOfRoot("amount", "total")},
			arg: func(a *cryptoWithdrawalArgs) *types.String { return &a.Amount },
			req: func(r *client.CryptoWithdrawalRequest) *string { return &r.Amount },
			got: func(t *client.Transfer) *string { return &t.Amount }},
		{name: "total", recordsAnswer: true, equal: decimalEqual, notListed: true,
			description: "Total to debit, fee included, as a decimal string above zero of at most 64 characters, " +
				"sent exactly as written. Exactly one of `amount` and `total` " +
				"must be set; when `amount` is set, `total` is computed (amount plus fee).",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset")},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.Total },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.Total },
			got:        func(t *client.Transfer) *string { return &t.Total }},
		flowRefID(withdrawalWords, func(a *cryptoWithdrawalArgs) *types.String { return &a.RefID },
			func(r *client.CryptoWithdrawalRequest) *string { return &r.RefID },
			func(t *client.Transfer) *string { return t.RefID }),
		flowIdentity(func(a *cryptoWithdrawalArgs) *types.String { return &a.IdentityID },
			func(r *client.CryptoWithdrawalRequest) *string { return &r.IdentityID },
			func(t *client.Transfer) *string { return t.IdentityID }),
		flowAccount(func(a *cryptoWithdrawalArgs) *types.String { return &a.AccountID },
			func(r *client.CryptoWithdrawalRequest) *string { return &r.AccountID },
			func(t *client.Transfer) *string { return t.AccountID }),
		{name: "balance_asset", recordsAnswer: true,
			description: "Asset balance to debit, for withdrawals of the service-issued USD stablecoin. When unset, " +
				"the service's answer (if any) is recorded.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.BalanceAsset },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.BalanceAsset },
			got:        func(t *client.Transfer) *string { return t.BalanceAsset }},
		{name: "fee_id", description: "Id of a guaranteed fee.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.FeeID },
			req:        func(r *client.CryptoWithdrawalRequest) *string { return &r.FeeID }},
		{name: "beneficiary", json: true,
			description: "Beneficiary of the withdrawal, as a JSON object (for example written with " +
				"`jsonencode({...})`). It is sent as given. The service marks this inline beneficiary as legacy, " +
				"to be withdrawn: Travel Rule data now belongs on the destination address, in the " +
				"`travelrule_metadata` of a `platform_crypto_destination_address`.",
			validators: []validator.String{jsonObjectValidator{}},
			arg:        func(a *cryptoWithdrawalArgs) *types.String { return &a.Beneficiary.StringValue },
			reqJSON:    func(r *client.CryptoWithdrawalRequest) *json.RawMessage { return &r.Beneficiary }},
		{name: "memo", description: "Memo included with the withdrawal.",
			arg: func(a *cryptoWithdrawalArgs) *types.String { return &a.Memo },
			req: func(r *client.CryptoWithdrawalRequest) *string { return &r.Memo },
			got: func(t *client.Transfer) *string { return t.Memo }},
		{name: "max_fee", applyOnly: true,
			description: "The most the withdrawal may pay as fee, in its asset, as a decimal string. At apply, " +
				"a guaranteed fee is quoted first (`POST /transfer/fees/crypto-withdrawal`, scope `" +
				client.ScopeWriteWithdrawalFee + "`) for this asset, network, destination and amount (or total), " +
				"and the withdrawal is sent with the quote's `fee_id` only when the quoted fee is at most " +
				"`max_fee`: the fee is then exactly the quote's. A higher quote fails the apply, naming both " +
				"figures, and nothing is sent. A quote that expired before the withdrawal reached the service is " +
				"quoted again once. Not sent itself, and not part of the derived `ref_id`. Conflicts with `fee_id`.",
			validators: []validator.String{decimalValidator(),
				stringvalidator.ConflictsWith(path.MatchRoot("fee_id"))},
			arg: func(a *cryptoWithdrawalArgs) *types.String { return &a.MaxFee }},
	},
	metadata: flowMetadata[cryptoWithdrawalArgs, client.Transfer, client.CryptoWithdrawalRequest]{
		arg: func(a *cryptoWithdrawalArgs) *types.Map { return &a.Metadata },
		req: func(r *client.CryptoWithdrawalRequest) *map[string]string { return &r.Metadata },
		got: func(t *client.Transfer) map[string]string { return t.Metadata },
	},
	computed: transferShape.without("profile_id", "destination_address", "asset", "crypto_network", "amount",
		"total", "ref_id", "identity_id", "account_id", "balance_asset", "metadata", "memo"),
	plan: flowPlan[cryptoWithdrawalArgs, client.Transfer]{
		moves:   withdrawalMovement,
		summary: cryptoWithdrawalArgs.summary,
	},
	create: flowCreate[cryptoWithdrawalArgs, client.Transfer, client.CryptoWithdrawalRequest]{
		post:     postCryptoWithdrawal,
		existing: client.ExistingTransfer,
		send:     sendWithinMaxFee,
		found:    checkFoundFee,
	},
	answer: flowAnswer[client.Transfer, client.CryptoWithdrawalRequest]{
		foreign: transferOfTypes(client.TransferTypeCryptoWithdr),
		failed:  transferFailed,
		said:    transferSaid,
		figures: transferFigureText,
		invariants: func(_ client.CryptoWithdrawalRequest, t *client.Transfer) []string {
			return transferFigures(t)
		},
	},
}
