package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ datasource.DataSourceWithConfigure        = (*transferDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*transferDataSource)(nil)
)

// NewTransferDataSource is the platform_transfer data source.
func NewTransferDataSource() datasource.DataSource {
	return &transferDataSource{}
}

// transferDataSource reads one transfer by id (GET /transfer/transfers/{id})
// or by ref_id (GET /transfer/transfers?ref_ids=...).
type transferDataSource struct {
	data *providerData
}

// transferModel is one transfer, with the API's field names.
type transferModel struct {
	ID                 types.String         `tfsdk:"id"`
	RefID              types.String         `tfsdk:"ref_id"`
	CustomerID         types.String         `tfsdk:"customer_id"`
	ProfileID          types.String         `tfsdk:"profile_id"`
	IdentityID         types.String         `tfsdk:"identity_id"`
	AccountID          types.String         `tfsdk:"account_id"`
	Amount             types.String         `tfsdk:"amount"`
	Total              types.String         `tfsdk:"total"`
	Fee                types.String         `tfsdk:"fee"`
	Asset              types.String         `tfsdk:"asset"`
	BalanceAsset       types.String         `tfsdk:"balance_asset"`
	Direction          types.String         `tfsdk:"direction"`
	Type               types.String         `tfsdk:"type"`
	Status             types.String         `tfsdk:"status"`
	SecondaryStatus    jsontypes.Normalized `tfsdk:"secondary_status"`
	StatusDetails      jsontypes.Normalized `tfsdk:"status_details"`
	CreatedAt          timetypes.RFC3339    `tfsdk:"created_at"`
	UpdatedAt          timetypes.RFC3339    `tfsdk:"updated_at"`
	Metadata           types.Map            `tfsdk:"metadata"`
	DestinationAddress types.String         `tfsdk:"destination_address"`
	CryptoNetwork      types.String         `tfsdk:"crypto_network"`
	CryptoTxHash       types.String         `tfsdk:"crypto_tx_hash"`
	CryptoTxIndex      types.String         `tfsdk:"crypto_tx_index"`
	AutoConversion     jsontypes.Normalized `tfsdk:"auto_conversion"`
	GroupID            types.String         `tfsdk:"group_id"`
	FiatAccountID      types.String         `tfsdk:"fiat_account_id"`
	NotionalValue      types.String         `tfsdk:"notional_value"`
	Memo               types.String         `tfsdk:"memo"`
}

// transferModelOf is the model of t.
func transferModelOf(t *client.Transfer) transferModel {
	return transferModel{
		ID:                 types.StringValue(t.ID),
		RefID:              stringValue(t.RefID),
		CustomerID:         optionalString(t.CustomerID),
		ProfileID:          optionalString(t.ProfileID),
		IdentityID:         stringValue(t.IdentityID),
		AccountID:          stringValue(t.AccountID),
		Amount:             optionalString(t.Amount),
		Total:              optionalString(t.Total),
		Fee:                optionalString(t.Fee),
		Asset:              optionalString(t.Asset),
		BalanceAsset:       stringValue(t.BalanceAsset),
		Direction:          optionalString(t.Direction),
		Type:               optionalString(t.Type),
		Status:             optionalString(t.Status),
		SecondaryStatus:    jsonValue(t.SecondaryStatus),
		StatusDetails:      jsonValue(t.StatusDetails),
		CreatedAt:          rfc3339OrNull(t.CreatedAt),
		UpdatedAt:          rfc3339OrNull(t.UpdatedAt),
		Metadata:           stringMapValue(t.Metadata),
		DestinationAddress: stringValue(t.DestinationAddress),
		CryptoNetwork:      stringValue(t.CryptoNetwork),
		CryptoTxHash:       stringValue(t.CryptoTxHash),
		CryptoTxIndex:      stringValue(t.CryptoTxIndex),
		AutoConversion:     jsonValue(t.AutoConversion),
		GroupID:            stringValue(t.GroupID),
		FiatAccountID:      stringValue(t.FiatAccountID),
		NotionalValue:      stringValue(t.NotionalValue),
		Memo:               stringValue(t.Memo),
	}
}

// transferAttributeDescriptions describe the computed fields of a transfer.
var transferAttributeDescriptions = map[string]string{
	"customer_id":         "Customer the transfer belongs to.",
	"profile_id":          "Profile of the transfer.",
	"identity_id":         "Identity of the user, for third-party integrations; null when none.",
	"account_id":          "Account of that identity; null when none.",
	"amount":              "Amount moved, as a decimal string.",
	"total":               "Total debited or credited, fee included, as a decimal string.",
	"fee":                 "Fee, as a decimal string.",
	"asset":               "Asset of the transfer, for example `BTC` or `USD`.",
	"balance_asset":       "Asset balance debited, for the service-issued USD stablecoin; null otherwise.",
	"direction":           "`DEBIT` or `CREDIT`.",
	"type":                "Type of the transfer, for example `CRYPTO_WITHDRAWAL`, `CRYPTO_DEPOSIT` or `WIRE_DEPOSIT`.",
	"status":              "`PENDING`, `COMPLETED` or `FAILED`.",
	"destination_address": "Crypto address of a crypto transfer; null otherwise.",
	"crypto_network":      "Network of a crypto transfer; null otherwise.",
	"crypto_tx_hash":      "On-chain transaction hash; null until there is one.",
	"crypto_tx_index":     "Output index or output address; null until there is one.",
	"group_id":            "Group linking both sides of an internal transfer; null otherwise.",
	"fiat_account_id":     "Fiat account of a fiat transfer; null otherwise.",
	"notional_value":      "USD value of amount plus fee at transfer time; null when the service gives none.",
	"memo":                "Memo of the transfer; null when none.",
}

func (d *transferDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transfer"
}

func (d *transferDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Optional: true, Computed: true, Validators: nonEmpty,
			MarkdownDescription: "Id of the transfer (for a withdrawal, the `id` of `platform_crypto_withdrawal`). " +
				"Exactly one of `id` and `ref_id` must be set.",
		},
		"ref_id": schema.StringAttribute{
			Optional: true, Computed: true, Validators: nonEmpty,
			MarkdownDescription: "Client-specified id the transfer was made with (for a withdrawal, its `ref_id`). " +
				"Exactly one of `id` and `ref_id` must be set; a `ref_id` that several transfers share is an error " +
				"that lists them.",
		},
		"created_at": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{},
			MarkdownDescription: "Creation time of the transfer (RFC 3339)."},
		"updated_at": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{},
			MarkdownDescription: "Time of the last update of the transfer (RFC 3339)."},
		"metadata": schema.MapAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Client-specified key/value pairs; null when none."},
	}
	for name, desc := range transferAttributeDescriptions {
		attrs[name] = schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	for name, desc := range map[string]string{
		"secondary_status": "More granular explanation of the status.",
		"status_details":   "Why the transfer is in its state, for specific error conditions.",
		"auto_conversion":  "Auto-conversion details.",
	} {
		attrs[name] = schema.StringAttribute{Computed: true, CustomType: jsontypes.NormalizedType{},
			MarkdownDescription: desc + " JSON object (read it with `jsondecode()`); null when the service gives none."}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one transfer (a crypto withdrawal, a deposit, an internal transfer, ...) by its " +
			"`id` (`GET /transfer/transfers/{id}`) or by the `ref_id` it was made with (`GET /transfer/transfers`), " +
			"with the OAuth scope `transfer:read_transfer`. Use it to follow a withdrawal's status and on-chain " +
			"transaction hash in a pipeline.",
		Attributes: attrs,
	}
}

func (d *transferDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("ref_id")),
	}
}

func (d *transferDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *transferDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg transferModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var t *client.Transfer
	if id := knownString(cfg.ID); id != "" {
		var err error
		t, err = d.data.client.GetTransfer(ctx, id)
		if err != nil {
			summary, detail := transferReadError(err, "id", id)
			resp.Diagnostics.AddAttributeError(path.Root("id"), summary, detail)
			return
		}
	} else {
		ref := knownString(cfg.RefID)
		var found []*client.Transfer
		for tr, err := range d.data.client.Transfers(ctx, client.ListTransfersQuery{RefIDs: []string{ref}, MaxItems: 10}) {
			if err != nil {
				summary, detail := transferReadError(err, "ref_id", ref)
				resp.Diagnostics.AddAttributeError(path.Root("ref_id"), summary, detail)
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
				ids[i] = tr.ID + " (" + tr.Type + ")"
			}
			resp.Diagnostics.AddAttributeError(path.Root("ref_id"), "Several transfers have this ref_id",
				fmt.Sprintf("Transfers %s were made with ref_id %q. Read the one you mean by its id.",
					strings.Join(ids, ", "), ref))
			return
		}
	}
	m := transferModelOf(t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// transferReadError is the diagnostic of a failed read of a transfer by
// the argument arg with value v.
func transferReadError(err error, arg, v string) (summary, detail string) {
	switch {
	case errors.Is(err, client.ErrNotFound):
		return "Transfer not found", fmt.Sprintf("No transfer has %s %q: %s.", arg, v, err)
	case cannotReadTransfers(err):
		return "Not allowed to read transfers",
			fmt.Sprintf("Reading the transfer with %s %q failed: %s.\n\nReading transfers needs the OAuth scope %s: "+
				"have it granted to the client credentials, and if the provider's scopes argument pins the token's "+
				"scopes, include it there.", arg, v, err, client.ScopeReadTransfer)
	}
	return "Reading the transfer failed", fmt.Sprintf("Reading the transfer with %s %q failed: %s.", arg, v, err)
}
