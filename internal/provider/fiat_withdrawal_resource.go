package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewFiatWithdrawalResource is the constructor of platform_fiat_withdrawal.
func NewFiatWithdrawalResource() resource.Resource {
	t := fiatWithdrawalFlow.declare()
	return newMoneyResource(&t)
}

// NewFiatWithdrawalAction is the constructor of the platform_fiat_withdrawal
// action.
func NewFiatWithdrawalAction() action.Action { return newMoneyAction(&fiatWithdrawalFlow) }

// NewFiatWithdrawalListResource is the platform_fiat_withdrawal list resource.
func NewFiatWithdrawalListResource() list.ListResource {
	return newTransferListResource(&fiatWithdrawalFlow,
		func(_ context.Context, _ *client.Client, t *client.Transfer) *client.Transfer { return t },
		client.FiatWithdrawalTransferTypes...)
}

// fiatWithdrawalWords are the words of a fiat withdrawal.
var fiatWithdrawalWords = createWords{
	refNamespace: "fiat_withdrawal",
	resourceType: "platform_fiat_withdrawal",
	noun:         "fiat withdrawal",
	made:         "sent",
	path:         client.PathFiatWithdrawals,
	scope:        client.ScopeWriteFiatWithdrawal,
}.filled()

// fiatWithdrawalFlow declares platform_fiat_withdrawal: one withdrawal to a
// bank account of the customer's (a platform_fiat_account), sent when the
// resource is created, its transfer read back by id to follow its status.
var fiatWithdrawalFlow = flow[fiatWithdrawalArgs, client.Transfer, client.FiatWithdrawalRequest]{
	objects: transfersOf(fiatWithdrawalWords, client.FiatWithdrawalTransferTypes...),
	texts: flowTexts{
		description: "Sends one fiat withdrawal (`POST /transfer/fiat-withdrawals`) to a bank account of the customer's " +
			"(`platform_fiat_account`) when it is created.\n\n" + flowDescription(fiatWithdrawalWords) +
			"\n\nThe fiat account must be `APPROVED`: a plan that sends to an account this configuration manages and " +
			"the service has not approved yet (a new account, or one whose update is under review) is refused, and " +
			"with the provider's `withdrawal_guard.approved_destinations_only` every account is read at the service " +
			"first. A withdrawal above the profile's balance is refused by the service (403 insufficient funds): " +
			"nothing is recorded, and nothing is sent.",
		actionDescription: "Sends one fiat withdrawal (`POST /transfer/fiat-withdrawals`) to a bank account of the " +
			"customer's each time it is invoked.",
		irreversible: "the service has no endpoint to cancel or reverse a fiat withdrawal, and it stays sent.",
	},
	args: []flowArg[fiatWithdrawalArgs, client.FiatWithdrawalRequest, *client.Transfer]{
		{name: "profile_id", required: true, description: "Profile to withdraw from.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *fiatWithdrawalArgs) *types.String { return &a.ProfileID },
			req:        func(r *client.FiatWithdrawalRequest) *string { return &r.ProfileID },
			got:        func(t *client.Transfer) *string { return &t.ProfileID }},
		{name: "fiat_account_id", required: true,
			description: "Fiat account (bank account) the withdrawal is paid to: the `id` of a `platform_fiat_account`, " +
				"which must be `APPROVED`.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *fiatWithdrawalArgs) *types.String { return &a.FiatAccountID },
			req:        func(r *client.FiatWithdrawalRequest) *string { return &r.FiatAccountID },
			got:        func(t *client.Transfer) *string { return t.FiatAccountID }},
		{name: "asset", required: true, equal: strings.EqualFold, description: "Fiat asset to withdraw, for example `USD`.",
			validators: []validator.String{assetValidator{}},
			arg:        func(a *fiatWithdrawalArgs) *types.String { return &a.Asset },
			req:        func(r *client.FiatWithdrawalRequest) *string { return &r.Asset },
			got:        func(t *client.Transfer) *string { return &t.Asset }},
		{name: "amount", recordsAnswer: true, equal: decimalEqual,
			description: "Amount paid to the bank account, as a decimal string above zero, sent exactly as written. " +
				"Exactly one of `amount` and `total` must be set; when `total` is set, `amount` is the service's answer.",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset"),
				bypass.ExactlyOneOfRoot("amount", "total")},
			arg: func(a *fiatWithdrawalArgs) *types.String { return &a.Amount },
			req: func(r *client.FiatWithdrawalRequest) *string { return &r.Amount },
			got: func(t *client.Transfer) *string { return &t.Amount }},
		{name: "total", recordsAnswer: true, equal: decimalEqual, notListed: true,
			description: "Total debited from the profile, fee included, as a decimal string above zero. Exactly one " +
				"of `amount` and `total` must be set; when `amount` is set, `total` is the service's answer.",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset")},
			arg:        func(a *fiatWithdrawalArgs) *types.String { return &a.Total },
			req:        func(r *client.FiatWithdrawalRequest) *string { return &r.Total },
			got:        func(t *client.Transfer) *string { return &t.Total }},
		{name: "memo", description: "Memo sent with the withdrawal to the bank.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *fiatWithdrawalArgs) *types.String { return &a.Memo },
			req:        func(r *client.FiatWithdrawalRequest) *string { return &r.Memo },
			got:        func(t *client.Transfer) *string { return t.Memo }},
		flowRefID(fiatWithdrawalWords, func(a *fiatWithdrawalArgs) *types.String { return &a.RefID },
			func(r *client.FiatWithdrawalRequest) *string { return &r.RefID },
			func(t *client.Transfer) *string { return t.RefID }),
		flowIdentity(func(a *fiatWithdrawalArgs) *types.String { return &a.IdentityID },
			func(r *client.FiatWithdrawalRequest) *string { return &r.IdentityID },
			func(t *client.Transfer) *string { return t.IdentityID }),
		flowAccount(func(a *fiatWithdrawalArgs) *types.String { return &a.AccountID },
			func(r *client.FiatWithdrawalRequest) *string { return &r.AccountID },
			func(t *client.Transfer) *string { return t.AccountID }),
	},
	metadata: flowMetadata[fiatWithdrawalArgs, client.Transfer, client.FiatWithdrawalRequest]{
		arg: func(a *fiatWithdrawalArgs) *types.Map { return &a.Metadata },
		req: func(r *client.FiatWithdrawalRequest) *map[string]string { return &r.Metadata },
		got: func(t *client.Transfer) map[string]string { return t.Metadata },
	},
	computed: transferShape.without("profile_id", "fiat_account_id", "asset", "amount", "total", "memo", "ref_id",
		"identity_id", "account_id", "metadata"),
	plan: flowPlan[fiatWithdrawalArgs, client.Transfer]{
		moves:   fiatWithdrawalArgs.moves,
		summary: fiatWithdrawalArgs.summary,
	},
	create: flowCreate[fiatWithdrawalArgs, client.Transfer, client.FiatWithdrawalRequest]{
		post: func(ctx context.Context, c *client.Client, body client.FiatWithdrawalRequest) (*client.Transfer, error) {
			return c.CreateFiatWithdrawal(ctx, body)
		},
		existing: client.ExistingTransfer,
	},
	answer: flowAnswer[client.Transfer, client.FiatWithdrawalRequest]{
		foreign: func(t *client.Transfer) []string {
			d := transferOfTypes(client.FiatWithdrawalTransferTypes...)(t)
			if t.FiatAccountID == nil {
				d = append(d, "fiat_account_id: answered none, a fiat withdrawal pays a fiat account")
			}
			return d
		},
		failed:     transferFailed,
		said:       transferSaid,
		figures:    transferFigureText,
		invariants: func(_ client.FiatWithdrawalRequest, t *client.Transfer) []string { return transferFigures(t) },
		unverified: fiatWithdrawalFee,
	},
}
