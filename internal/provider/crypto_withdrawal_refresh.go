package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Observing and adopting withdrawals: the refresh reads the transfer
// (GET /transfer/transfers/{id}, scope transfer:read_transfer, published in
// the service's API reference) and follows its status; import and resource
// identity adopt a withdrawal made elsewhere by its transfer id. None of
// them ever sends anything, and a refresh never changes an argument, so it
// can never plan a replacement (a new withdrawal).

var (
	_ resource.ResourceWithImportState = (*cryptoWithdrawalResource)(nil)
	_ resource.ResourceWithIdentity    = (*cryptoWithdrawalResource)(nil)
)

func (r *cryptoWithdrawalResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("transfer the withdrawal created")
}

func (r *cryptoWithdrawalResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}

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

// refresh reads the transfer of a confirmed withdrawal into m. An object
// just imported (its arguments are null) must be read: any failure is an
// error, so that nothing half-adopted enters the state, and the transfer
// must be the crypto withdrawal asked for; it then takes every argument
// from the transfer. Otherwise the transfer must be the one the state
// records (its id, ref_id and arguments), and only the attributes that
// follow the transfer's life (status, secondary_status, status_details,
// crypto_tx_hash, crypto_tx_index, updated_at, fee, notional_value and the
// like) change.
func (r *cryptoWithdrawalResource) refresh(ctx context.Context, m *cryptoWithdrawalModel, diags *diag.Diagnostics) {
	id := m.id().ValueString()
	importing := m.args.ProfileID.IsNull()
	t, err := r.data.client.GetTransfer(ctx, id)
	switch {
	case err == nil:
	case importing:
		cannotImport(withdrawalWords, id, err, client.ScopeReadTransfer, diags)
		return
	case scopeRefused(err):
		tflog.Warn(ctx, "transfers cannot be read; withdrawal state kept", map[string]any{"id": id, "error": err.Error()})
		r.data.warnOnce("read:transfers", func() {
			diags.AddWarning("Withdrawal status not refreshed",
				fmt.Sprintf("Reading transfers needs the OAuth scope %s, which these client credentials cannot get "+
					"(%s). The crypto withdrawals keep the status recorded when they were sent; nothing else is "+
					"affected. Have the scope granted (and, if the provider's scopes argument pins the token's "+
					"scopes, include it there) to follow their status and on-chain transaction hash.",
					client.ScopeReadTransfer, err))
		})
		return
	case errors.Is(err, client.ErrNotFound):
		diags.AddWarning("Withdrawal not found at the service",
			fmt.Sprintf("The service does not know the transfer %s of this withdrawal (ref_id %s) any more: %s. The "+
				"state is kept as recorded, and nothing is sent.", id, m.args.RefID.ValueString(), err))
		return
	default:
		diags.AddError(failure("Reading the withdrawal failed", err),
			fmt.Sprintf("Reading the transfer %s of this withdrawal failed: %s.\n\nNothing was sent. Check the "+
				"provider configuration and the service's availability, then try again.", id, err))
		return
	}
	if importing {
		if d := importedTransferDifferences(id, t); len(d) > 0 {
			notImportable(withdrawalWords, id, d, diags)
			return
		}
		m.adopt(t, diags)
	} else {
		body, d := m.args.request(ctx, m.args.RefID.ValueString())
		diags.Append(d...)
		if diags.HasError() {
			return
		}
		differences := recordedDifferences(m.id(), t.ID, nil)
		differences = append(differences, withdrawalDifferences(body, t)...)
		if len(differences) > 0 {
			anotherObject(withdrawalWords, id, differences, diags)
			return
		}
		// The transfer is the one recorded: every computed attribute
		// follows it (status, crypto_tx_hash, updated_at, fee and the
		// like); no argument changes.
		m.computed = withdrawalTransferShape.attrValues(t, diags)
	}
	if t.Status == client.TransferStatusFailed {
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
}

// importedTransferDifferences lists why the transfer t, read for an import
// of id, is not the crypto withdrawal asked for.
func importedTransferDifferences(id string, t *client.Transfer) []string {
	var d []string
	if t.ID != id {
		d = append(d, fmt.Sprintf("id: asked %q, answered %q", id, shown(t.ID)))
	}
	if t.Type != client.TransferTypeCryptoWithdr {
		d = append(d, fmt.Sprintf("type: %q, not %s", shown(t.Type), client.TransferTypeCryptoWithdr))
	}
	if !strings.EqualFold(t.Direction, "DEBIT") {
		d = append(d, fmt.Sprintf("direction: %q, not DEBIT", shown(t.Direction)))
	}
	return d
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
