package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewInternalTransferResource is the constructor of platform_internal_transfer.
func NewInternalTransferResource() resource.Resource {
	t := internalTransferFlow.declare()
	return newMoneyResource(&t)
}

// NewInternalTransferAction is the constructor of the
// platform_internal_transfer action.
func NewInternalTransferAction() action.Action { return newMoneyAction(&internalTransferFlow) }

// NewInternalTransferListResource is the platform_internal_transfer list
// resource: the debit sides of the customer's internal transfers.
func NewInternalTransferListResource() list.ListResource {
	return newTransferListResource(&internalTransferFlow,
		func(ctx context.Context, c *client.Client, t *client.Transfer) *internalTransfer {
			// A credit side that cannot be read leaves the transfer out
			// (unlisted), with the reason.
			it, _ := withCredit(ctx, c, t)
			return it
		},
		client.TransferTypeInternalDebit)
}

// internalTransferFlow declares platform_internal_transfer: one transfer
// between two profiles of the customer's, sent when the resource is
// created, read back by the id of its debit side, with its credit side.
var internalTransferFlow = flow[internalTransferArgs, internalTransfer, client.InternalTransferRequest]{
	objects: internalTransferObjects,
	texts: flowTexts{
		description: "Sends one transfer between two profiles of the customer's (`POST /transfer/internal`) when it is " +
			"created. The service records it as two transfers of one `group_id`: the debit in `from_profile_id`, whose " +
			"id is this resource's `id`, and the credit in `to_profile_id` (`credit_transfer_id`), both read back " +
			"through `GET /transfer/transfers`.\n\n" + flowDescription(internalTransferWords) +
			"\n\nA transfer above the profile's balance is refused by the service (403 insufficient funds): nothing is " +
			"recorded, and nothing is sent.",
		actionDescription: "Sends one transfer between two profiles of the customer's (`POST /transfer/internal`) each " +
			"time it is invoked.",
		irreversible: "the service has no endpoint to cancel or reverse an internal transfer; to move the money back, " +
			"declare a transfer the other way.",
	},
	args: []flowArg[internalTransferArgs, client.InternalTransferRequest, *internalTransfer]{
		{name: "from_profile_id", required: true, description: "Profile the money leaves.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *internalTransferArgs) *types.String { return &a.FromProfileID },
			req:        func(r *client.InternalTransferRequest) *string { return &r.FromProfileID },
			got:        func(t *internalTransfer) *string { return &t.ProfileID }},
		{name: "to_profile_id", required: true, mayBeUnreported: true,
			description: "Profile the money goes to: another profile of the customer's, compared with the credit " +
				"side of the transfer where the service lists it.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1),
				differentFrom{other: path.Root("from_profile_id")}},
			arg: func(a *internalTransferArgs) *types.String { return &a.ToProfileID },
			req: func(r *client.InternalTransferRequest) *string { return &r.ToProfileID },
			got: func(t *internalTransfer) *string {
				if t.credit == nil {
					return nil
				}
				return &t.credit.ProfileID
			}},
		{name: "asset", required: true, equal: strings.EqualFold, description: "Asset to transfer, for example `USD` or `BTC`.",
			validators: []validator.String{assetValidator{}},
			arg:        func(a *internalTransferArgs) *types.String { return &a.Asset },
			req:        func(r *client.InternalTransferRequest) *string { return &r.Asset },
			got:        func(t *internalTransfer) *string { return &t.Asset }},
		{name: "amount", required: true, equal: decimalEqual,
			description: "Amount to transfer, as a decimal string above zero, sent exactly as written, with at most " +
				"the decimals of the smallest unit of `asset` (BTC 8, ETH 18, SOL 9, USDC 6, USD 2, ...).",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("asset")},
			arg:        func(a *internalTransferArgs) *types.String { return &a.Amount },
			req:        func(r *client.InternalTransferRequest) *string { return &r.Amount },
			got:        func(t *internalTransfer) *string { return &t.Amount }},
		flowRefID(internalTransferWords, func(a *internalTransferArgs) *types.String { return &a.RefID },
			func(r *client.InternalTransferRequest) *string { return &r.RefID },
			func(t *internalTransfer) *string { return t.RefID }),
		flowIdentity(func(a *internalTransferArgs) *types.String { return &a.IdentityID },
			func(r *client.InternalTransferRequest) *string { return &r.IdentityID },
			func(t *internalTransfer) *string { return t.IdentityID }),
		flowAccount(func(a *internalTransferArgs) *types.String { return &a.AccountID },
			func(r *client.InternalTransferRequest) *string { return &r.AccountID },
			func(t *internalTransfer) *string { return t.AccountID }),
	},
	metadata: flowMetadata[internalTransferArgs, internalTransfer, client.InternalTransferRequest]{
		arg: func(a *internalTransferArgs) *types.Map { return &a.Metadata },
		req: func(r *client.InternalTransferRequest) *map[string]string { return &r.Metadata },
		got: func(t *internalTransfer) map[string]string { return t.Metadata },
	},
	computed: internalTransferShape,
	plan: flowPlan[internalTransferArgs, internalTransfer]{
		moves:   internalTransferArgs.moves,
		summary: internalTransferArgs.summary,
	},
	create: flowCreate[internalTransferArgs, internalTransfer, client.InternalTransferRequest]{
		post:     postInternalTransfer,
		existing: existingInternalTransfer,
	},
	answer: flowAnswer[internalTransfer, client.InternalTransferRequest]{
		foreign: func(t *internalTransfer) []string {
			return transferOfTypes(client.TransferTypeInternalDebit)(&t.Transfer)
		},
		failed:     func(t *internalTransfer) bool { return transferFailed(&t.Transfer) },
		said:       func(t *internalTransfer) string { return transferSaid(&t.Transfer) },
		figures:    func(t *internalTransfer) string { return transferFigureText(&t.Transfer) },
		invariants: internalTransferInvariants,
		unverified: internalTransferUnverified,
	},
}
