package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Observing and adopting withdrawals: the refresh reads the transfer
// (GET /transfer/transfers/{id}, scope transfer:read_transfer, published in
// the service's API reference) and follows its status; import and resource
// identity adopt a withdrawal made elsewhere by its transfer id. None of
// them ever sends anything, and a refresh never changes an argument, so it
// can never plan a replacement (a new withdrawal).

// replaceUnlessRecordedAfterImport is the plan modifier of the arguments the
// service does not report (fee_id, beneficiary): a change is a new
// withdrawal, except setting them on an imported one, whose state cannot
// know them: that only records the configured value.
func replaceUnlessRecordedAfterImport() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(
		func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.StateValue.IsNull() || !imported(ctx, req.Private)
		},
		"Changing it sends a new withdrawal, except on an imported withdrawal whose value the service does not "+
			"report: then the configured value is recorded.",
		"Changing it sends a new withdrawal, except on an imported withdrawal whose value the service does not "+
			"report: then the configured value is recorded.",
	)
}

// warnFailed warns of a withdrawal whose transfer t has status FAILED.
func warnFailed(m shapedState[cryptoWithdrawalArgs], t *client.Transfer, diags *diag.Diagnostics) {
	if t.Status != client.TransferStatusFailed {
		return
	}
	details := ""
	if len(t.StatusDetails) > 0 {
		details = " The service says: " + shown(string(t.StatusDetails)) + "."
	}
	diags.AddWarning("Crypto withdrawal FAILED",
		fmt.Sprintf("The withdrawal %s (ref_id %s, %s) has status FAILED.%s It is never sent again on its own: "+
			"the provider keeps it as it is. To send it again on purpose, give it a new ref_id in the "+
			"configuration; Terraform then plans a replacement, which sends a new withdrawal.",
			shown(t.ID), m.args.RefID.ValueString(), m.args.summary(), details))
}

// importedTransferDifferences lists why the transfer t, read for an import
// of id, is not the crypto withdrawal asked for.
func importedTransferDifferences(id string, t *client.Transfer) []string {
	var d []string
	if t.ID != id {
		d = append(d, fmt.Sprintf("id: asked %q, answered %q", id, shown(t.ID)))
	}
	return append(d, transferOfTypes(client.TransferTypeCryptoWithdr)(t)...)
}

// adopt fills every argument and attribute of an imported withdrawal from
// its transfer. fee_id and beneficiary, which the service does not report,
// stay null.
func (m *cryptoWithdrawalModel) adopt(t *client.Transfer, diags *diag.Diagnostics) {
	m.args = cryptoWithdrawalArgs{
		ProfileID:          types.StringValue(t.ProfileID),
		DestinationAddress: stringValue(t.DestinationAddress),
		Asset:              types.StringValue(t.Asset),
		CryptoNetwork:      stringValue(t.CryptoNetwork),
		Amount:             types.StringNull(),
		Total:              types.StringNull(),
		RefID:              stringValue(t.RefID),
		IdentityID:         types.StringNull(),
		AccountID:          types.StringNull(),
		BalanceAsset:       types.StringNull(),
		Metadata:           stringMapValue(t.Metadata),
		FeeID:              types.StringNull(),
		Beneficiary:        jsonValue(nil),
		Memo:               stringValue(t.Memo),
	}
	m.fromTransfer(t, diags)
}
