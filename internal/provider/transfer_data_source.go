package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewTransferDataSource is the platform_transfer data source.
func NewTransferDataSource() datasource.DataSource { return newObjectDataSource(&transferDataSource) }

// transferDataSource reads one transfer by id (GET /transfer/transfers/{id})
// or by ref_id (GET /transfer/transfers?ref_ids=...).
var transferDataSource = objectDataSourceDeclaration{
	typeName: "platform_transfer",
	description: "Reads one transfer (a crypto withdrawal, a deposit, an internal transfer, ...) by its " +
		"`id` (`GET /transfer/transfers/{id}`) or by the `ref_id` it was made with (`GET /transfer/transfers`), " +
		"with the OAuth scope `transfer:read_transfer`. Use it to follow a withdrawal's status and on-chain " +
		"transaction hash in a pipeline.",
	attributes: transferDataSourceAttributes,
	validators: []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("ref_id")),
	},
	read: transferDataSourceRead,
}

// transferDataSourceAttributes are the transfer's shape with id and
// ref_id, one of which names the transfer.
func transferDataSourceAttributes() map[string]schema.Attribute {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	attrs := transferShape.attributes()
	attrs["id"] = schema.StringAttribute{
		Optional: true, Computed: true, Validators: nonEmpty,
		MarkdownDescription: "Id of the transfer (for a withdrawal, the `id` of `platform_crypto_withdrawal`). " +
			"Exactly one of `id` and `ref_id` must be set.",
	}
	attrs["ref_id"] = schema.StringAttribute{
		Optional: true, Computed: true, Validators: nonEmpty,
		MarkdownDescription: "Client-specified id the transfer was made with (for a withdrawal, its `ref_id`). " +
			"Exactly one of `id` and `ref_id` must be set; a `ref_id` that several transfers share is an error " +
			"that lists them.",
	}
	return attrs
}

// transferDataSourceRead reads the transfer that id or ref_id names.
func transferDataSourceRead(ctx context.Context, c *client.Client, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id, ref types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("ref_id"), &ref)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var t *client.Transfer
	if id := knownString(id); id != "" {
		var err error
		t, err = c.GetTransfer(ctx, id)
		if err != nil {
			summary, detail := transferReadError(err, "id", id)
			resp.Diagnostics.AddAttributeError(path.Root("id"), failure(summary, err), detail)
			return
		}
		if t.ID != id {
			resp.Diagnostics.AddAttributeError(path.Root("id"), "Transfer read answered another transfer",
				fmt.Sprintf("The service answered the read of the transfer %q with the transfer %s: the provider does "+
					"not record an answer it did not ask for. Check the id, and the service.", id,
					quotedPrefix(shown(t.ID))))
			return
		}
	} else {
		ref := knownString(ref)
		var found []*client.Transfer
		for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{RefIDs: []string{ref}, MaxItems: 10}) {
			if err != nil {
				summary, detail := transferReadError(err, "ref_id", ref)
				resp.Diagnostics.AddAttributeError(path.Root("ref_id"), failure(summary, err), detail)
				return
			}
			if deref(tr.RefID) != ref {
				resp.Diagnostics.AddAttributeError(path.Root("ref_id"), "Transfer list answered another ref_id",
					fmt.Sprintf("The service answered the list of the transfers with ref_id %q with the transfer %s, "+
						"whose ref_id is %s: the provider does not record an answer it did not ask for. Check the "+
						"service.", ref, quotedPrefix(shown(tr.ID)), quotedPrefix(shown(deref(tr.RefID)))))
				return
			}
			found = append(found, tr)
		}
		switch len(found) {
		case 0:
			resp.Diagnostics.AddAttributeError(path.Root("ref_id"), "Transfer not found",
				fmt.Sprintf("No transfer was made with ref_id %q. Check the ref_id; for a withdrawal it is the "+
					"ref_id of platform_crypto_withdrawal (shown in its plan).", ref))
			return
		case 1:
			t = found[0]
		default:
			ids := make([]string, len(found))
			for i, tr := range found {
				ids[i] = shown(tr.ID + " (" + tr.Type + ")")
			}
			resp.Diagnostics.AddAttributeError(path.Root("ref_id"), "Several transfers have this ref_id",
				fmt.Sprintf("Transfers %s were made with ref_id %q. Read the one you mean by its id.",
					strings.Join(ids, ", "), ref))
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, transferShape.value(t, &resp.Diagnostics))...)
}

// transferReadError is the diagnostic of a failed read of a transfer by
// the argument arg with value v.
func transferReadError(err error, arg, v string) (summary, detail string) {
	switch {
	case errors.Is(err, client.ErrNotFound):
		return "Transfer not found", fmt.Sprintf("No transfer has %s %q: %s.", arg, v, err)
	case scopeRefused(err):
		return "Not allowed to read transfers",
			fmt.Sprintf("Reading the transfer with %s %q failed: %s.\n\nReading transfers needs the OAuth scope %s: "+
				"have it granted to the client credentials, and if the provider's scopes argument pins the token's "+
				"scopes, include it there.", arg, v, err, client.ScopeReadTransfer)
	}
	return "Reading the transfer failed", fmt.Sprintf("Reading the transfer with %s %q failed: %s.", arg, v, err)
}
