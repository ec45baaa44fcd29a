package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The arguments of a crypto withdrawal: the model its flow's rows
// (cryptoWithdrawalFlow) read and write, for the resource and the action.

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

// summary describes the withdrawal of a in a few words, for messages.
func (a cryptoWithdrawalArgs) summary() string {
	what := knownString(a.Amount) + " " + knownString(a.Asset)
	if knownString(a.Amount) == "" {
		what = "total " + knownString(a.Total) + " " + knownString(a.Asset)
	}
	return fmt.Sprintf("%s on %s to %s from profile %s", what, knownString(a.CryptoNetwork),
		knownString(a.DestinationAddress), knownString(a.ProfileID))
}
