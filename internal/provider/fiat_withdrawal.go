package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A fiat withdrawal: a transfer (see transfer.go) of one of the fiat
// withdrawal types, made by POST /transfer/fiat-withdrawals from the
// arguments below.

// fiatWithdrawalArgs are the arguments of a fiat withdrawal.
type fiatWithdrawalArgs struct {
	ProfileID     types.String `tfsdk:"profile_id"`
	FiatAccountID types.String `tfsdk:"fiat_account_id"`
	Asset         types.String `tfsdk:"asset"`
	Amount        types.String `tfsdk:"amount"`
	Total         types.String `tfsdk:"total"`
	Memo          types.String `tfsdk:"memo"`
	RefID         types.String `tfsdk:"ref_id"`
	IdentityID    types.String `tfsdk:"identity_id"`
	AccountID     types.String `tfsdk:"account_id"`
	Metadata      types.Map    `tfsdk:"metadata"`
}

// summary describes the withdrawal of a in a few words, for messages.
func (a fiatWithdrawalArgs) summary() string {
	figure, name := moneyFigure(a.Amount, a.Total)
	what := knownString(figure) + " " + knownString(a.Asset)
	if name == "total" {
		what = "total " + what
	}
	return fmt.Sprintf("%s to fiat account %s from profile %s", what, knownString(a.FiatAccountID),
		knownString(a.ProfileID))
}

// moneyKindFiatWithdrawal is the money.kind of a fiat withdrawal.
var moneyKindFiatWithdrawal = movementKind("fiat_withdrawal", "")

// moves is what the withdrawal of a moves: its amount (or total) to its
// fiat account.
func (a fiatWithdrawalArgs) moves() movement {
	figure, name := moneyFigure(a.Amount, a.Total)
	null := types.StringNull()
	return movement{kind: moneyKindFiatWithdrawal, asset: a.Asset, amount: figure, figureName: name,
		from: a.ProfileID, to: a.FiatAccountID, fiatAccount: a.FiatAccountID, address: null, network: null,
		identity: null, limitTypes: client.FiatWithdrawalTransferTypes, what: a.summary()}
}

// fiatWithdrawalFee says what the fee of the withdrawal t is, when it
// charged one: nothing in the request bounds a fiat withdrawal's fee (the
// service quotes none), so the provider can only check that amount plus
// fee is total, and says what was charged.
func fiatWithdrawalFee(t *client.Transfer) []string {
	fee, ok := parseAmount(t.Fee)
	if !ok || !fee.IsPositive() {
		return nil
	}
	return []string{fmt.Sprintf("fee: the service charged a fee of %s %s: %s %s debited from profile %s for %s %s "+
		"paid to the fiat account. The service quotes no fee of a fiat withdrawal before it is sent, so nothing "+
		"bounds it; if it is not what you expected, check the withdrawal with the service.", t.Fee, t.Asset, t.Total,
		t.Asset, t.ProfileID, t.Amount, t.Asset)}
}
