package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A deposit address (GET /transfer/deposit-addresses): its shape, the
// single source of its computed attributes in the data source
// platform_deposit_addresses and in the resource and list resource
// platform_deposit_address, beside the resource's arguments, which are
// literal (depositAddressArgs). Adding a computed field to a deposit
// address is one line here.

var depositAddressShape = objectShape[client.DepositAddress]{
	stringField("id", "Deposit address id (UUID).", func(d *client.DepositAddress) *string { return d.ID }),
	stringField("profile_id", "Profile credited by deposits to the address.",
		func(d *client.DepositAddress) *string { return d.ProfileID }),
	stringField("customer_id", "Customer.", func(d *client.DepositAddress) *string { return d.CustomerID }),
	stringField("identity_id", "Identity.", func(d *client.DepositAddress) *string { return d.IdentityID }),
	stringField("ref_id", "Client-specified id.", func(d *client.DepositAddress) *string { return d.RefID }),
	stringField("crypto_network", "Network of the address, for example `ETHEREUM`.",
		func(d *client.DepositAddress) *string { return d.CryptoNetwork }),
	stringField("address", "The crypto address.", func(d *client.DepositAddress) *string { return d.Address }),
	stringField("account_id", "Account the address belongs to.", func(d *client.DepositAddress) *string { return d.AccountID }),
	stringField("conversion_target_asset", "Asset that deposits to the address are converted to; null when they are not converted.",
		func(d *client.DepositAddress) *string { return d.ConversionTargetAsset }),
	stringListField("compatible_crypto_networks", "Networks compatible with the address.",
		func(d *client.DepositAddress) []string { return d.CompatibleCryptoNetworks }),
	stringMapField("metadata", "Client metadata of the address.",
		func(d *client.DepositAddress) map[string]string { return d.Metadata }),
	timeField("created_at", "Creation time", func(d *client.DepositAddress) *time.Time { return d.CreatedAt }),
}

// depositAddressArgumentNames are the fields of a deposit address that are
// arguments of the platform_deposit_address resource.
var depositAddressArgumentNames = []string{
	"profile_id", "crypto_network", "identity_id", "account_id", "ref_id", "metadata", "conversion_target_asset",
}

// depositAddressComputedShape is what the resource computes: the address
// less its arguments.
var depositAddressComputedShape = depositAddressShape.without(depositAddressArgumentNames...)

// depositAddressArgs are the arguments of the resource: the fields of
// CreateDepositAddressRequest.
type depositAddressArgs struct {
	ProfileID             types.String `tfsdk:"profile_id"`
	CryptoNetwork         types.String `tfsdk:"crypto_network"`
	IdentityID            types.String `tfsdk:"identity_id"`
	AccountID             types.String `tfsdk:"account_id"`
	RefID                 types.String `tfsdk:"ref_id"`
	Metadata              types.Map    `tfsdk:"metadata"`
	ConversionTargetAsset types.String `tfsdk:"conversion_target_asset"`
}

// depositAddressModel is one deposit address: its arguments and the
// computed attributes of depositAddressComputedShape.
type depositAddressModel shapedState[depositAddressArgs]

// set writes m to dst, whose schema is sch.
func (m depositAddressModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[depositAddressArgs](m))
}

// request is the create request of the arguments with the given ref_id.
func (a depositAddressArgs) request(ctx context.Context, refID string) (client.DepositAddressRequest, error) {
	req := client.DepositAddressRequest{
		ProfileID:             knownString(a.ProfileID),
		CryptoNetwork:         knownString(a.CryptoNetwork),
		IdentityID:            knownString(a.IdentityID),
		RefID:                 refID,
		AccountID:             knownString(a.AccountID),
		ConversionTargetAsset: knownString(a.ConversionTargetAsset),
	}
	if !a.Metadata.IsNull() && !a.Metadata.IsUnknown() {
		req.Metadata = map[string]string{}
		if d := a.Metadata.ElementsAs(ctx, &req.Metadata, false); d.HasError() {
			return req, errors.New("metadata is not a map of strings")
		}
	}
	return req, nil
}

// summary describes the address of a in a few words, for messages.
func (a depositAddressArgs) summary() string {
	return fmt.Sprintf("%s deposit address for profile %s", knownString(a.CryptoNetwork), knownString(a.ProfileID))
}

// fromAPI sets m from the address d. Computed attributes take the answered
// values; an argument keeps a known value of m (what was configured) and
// otherwise takes the answered one (null when the answer has none).
func (m *depositAddressModel) fromAPI(d *client.DepositAddress, diags *diag.Diagnostics) {
	a := &m.args
	for _, f := range []struct {
		cur      *types.String
		answered *string
	}{
		{&a.ProfileID, d.ProfileID}, {&a.CryptoNetwork, d.CryptoNetwork}, {&a.IdentityID, d.IdentityID},
		{&a.AccountID, d.AccountID}, {&a.RefID, d.RefID}, {&a.ConversionTargetAsset, d.ConversionTargetAsset},
	} {
		*f.cur = keepOr(*f.cur, stringValue(f.answered))
	}
	if a.Metadata.IsNull() || a.Metadata.IsUnknown() {
		a.Metadata = stringMapValue(d.Metadata)
	}
	m.computed = depositAddressComputedShape.attrValues(d, diags)
}

// depositAddressDifferences lists how the address d differs from the
// request req: profile, network, ref_id and metadata, and the identity,
// account and conversion target when requested (they must come back
// equal); its id and address must be usable.
func depositAddressDifferences(req client.DepositAddressRequest, d *client.DepositAddress) []string {
	var out []string
	out = differ(out, "profile_id", req.ProfileID, d.ProfileID, exactly)
	out = differ(out, "crypto_network", req.CryptoNetwork, d.CryptoNetwork, exactly)
	if req.RefID != "" {
		out = differ(out, "ref_id", req.RefID, d.RefID, exactly)
	}
	for _, f := range []struct {
		name, requested string
		answered        *string
	}{
		{"identity_id", req.IdentityID, d.IdentityID},
		{"account_id", req.AccountID, d.AccountID},
		{"conversion_target_asset", req.ConversionTargetAsset, d.ConversionTargetAsset},
	} {
		if f.requested != "" {
			out = differ(out, f.name, f.requested, f.answered, exactly)
		}
	}
	if m := metadataDifference(req.Metadata, d.Metadata); m != "" {
		out = append(out, m)
	}
	if why := unusableID(deref(d.ID)); why != "" {
		out = append(out, "id: answered "+why)
	}
	if why := unusableID(deref(d.Address)); why != "" {
		out = append(out, "address: answered "+why)
	}
	return out
}

// depositAddressSummary describes an address in a few words, its text as
// it may be shown (see shown).
func depositAddressSummary(d *client.DepositAddress) string {
	return shown(fmt.Sprintf("%s address %s for profile %s", deref(d.CryptoNetwork), deref(d.Address), deref(d.ProfileID)))
}
