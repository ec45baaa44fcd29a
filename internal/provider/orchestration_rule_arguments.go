package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// An orchestration rule (POST, GET and DELETE /orchestration/rules): its
// shape, the single source of the computed attributes of the resource and
// list resource platform_orchestration_rule, beside the resource's
// arguments, which are literal (orchestrationRuleArgs), with their request
// and the comparison of an answered rule with it.

// orchestrationRuleShape is what the resource computes: the rule's id,
// status and creation time, and the deposit it watches (the answer's
// source).
var orchestrationRuleShape = objectShape[client.OrchestrationRule]{
	stringField("id", "Orchestration rule id (UUID).", func(r *client.OrchestrationRule) *string { return r.ID }),
	stringField("status", "Status of the rule: `PENDING` until the service's approval makes it `ACTIVE` (it then "+
		"routes every deposit to its source) or `REJECTED`; `DELETED` once deleted.",
		func(r *client.OrchestrationRule) *string { return r.Status }),
	timeField("created_at", "Creation time", func(r *client.OrchestrationRule) *time.Time { return r.CreatedAt }),
	stringField("deposit_address", "The address the rule watches, for a crypto `source`: deposits of `source_asset` "+
		"sent to it on the source network are routed; null for a fiat source.",
		func(r *client.OrchestrationRule) *string {
			if r.Source == nil || r.Source.Crypto == nil {
				return nil
			}
			return r.Source.Crypto.Address
		}),
	stringField("deposit_address_id", "Id of the deposit address the rule watches; null for a fiat source.",
		func(r *client.OrchestrationRule) *string {
			if r.Source == nil || r.Source.Crypto == nil {
				return nil
			}
			return r.Source.Crypto.AddressID
		}),
	stringField("deposit_instructions_id", "Id of the fiat deposit instructions the rule watches, for a fiat "+
		"`source`; null for a crypto source.",
		func(r *client.OrchestrationRule) *string {
			if r.Source == nil || r.Source.Fiat == nil {
				return nil
			}
			return r.Source.Fiat.DepositInstructionsID
		}),
	stringField("deposit_memo_id", "Memo a fiat deposit must quote to be routed by the rule; null for a crypto source.",
		func(r *client.OrchestrationRule) *string {
			if r.Source == nil || r.Source.Fiat == nil {
				return nil
			}
			return r.Source.Fiat.MemoID
		}),
}

// Attribute types of the nested arguments source and destination.
var (
	ruleCryptoSourceType = types.ObjectType{AttrTypes: map[string]attr.Type{"network": types.StringType}}
	ruleFiatSourceType   = types.ObjectType{AttrTypes: map[string]attr.Type{
		"network": types.StringType, "account_type": types.StringType,
	}}
	ruleSourceTypes = map[string]attr.Type{"crypto": ruleCryptoSourceType, "fiat": ruleFiatSourceType}

	ruleCryptoDestinationType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"address": types.StringType, "network": types.StringType,
	}}
	ruleFiatDestinationType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"fiat_account_id": types.StringType, "memo": types.StringType,
	}}
	ruleProfileDestinationType = types.ObjectType{AttrTypes: map[string]attr.Type{"profile_id": types.StringType}}
	ruleDestinationTypes       = map[string]attr.Type{
		"crypto": ruleCryptoDestinationType, "fiat": ruleFiatDestinationType, "profile": ruleProfileDestinationType,
	}
)

// orchestrationRuleArgs are the arguments of the resource: the fields of
// CreateOrchestrationRuleRequest, and how long a create waits for the
// rule to be approved.
type orchestrationRuleArgs struct {
	ProfileID        types.String `tfsdk:"profile_id"`
	Nickname         types.String `tfsdk:"nickname"`
	SourceAsset      types.String `tfsdk:"source_asset"`
	DestinationAsset types.String `tfsdk:"destination_asset"`
	Source           types.Object `tfsdk:"source"`
	Destination      types.Object `tfsdk:"destination"`
	IdentityID       types.String `tfsdk:"identity_id"`
	AccountID        types.String `tfsdk:"account_id"`
	RefID            types.String `tfsdk:"ref_id"`
	WaitForActive    types.String `tfsdk:"wait_for_active"`
}

// ruleSourceArgs and ruleDestinationArgs are the nested arguments.
type ruleSourceArgs struct {
	Crypto *struct {
		Network types.String `tfsdk:"network"`
	} `tfsdk:"crypto"`
	Fiat *struct {
		Network     types.String `tfsdk:"network"`
		AccountType types.String `tfsdk:"account_type"`
	} `tfsdk:"fiat"`
}

type ruleDestinationArgs struct {
	Crypto *struct {
		Address types.String `tfsdk:"address"`
		Network types.String `tfsdk:"network"`
	} `tfsdk:"crypto"`
	Fiat *struct {
		FiatAccountID types.String `tfsdk:"fiat_account_id"`
		Memo          types.String `tfsdk:"memo"`
	} `tfsdk:"fiat"`
	Profile *struct {
		ProfileID types.String `tfsdk:"profile_id"`
	} `tfsdk:"profile"`
}

// asOptions read a nested argument whose parts may be unknown at plan.
var asOptions = basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}

// source and destination read the nested arguments; a null or unknown one
// is the zero value.
func (a orchestrationRuleArgs) source(ctx context.Context) (ruleSourceArgs, error) {
	var s ruleSourceArgs
	if a.Source.IsNull() || a.Source.IsUnknown() {
		return s, nil
	}
	if d := a.Source.As(ctx, &s, asOptions); d.HasError() {
		return s, errors.New("source is not an object of crypto or fiat")
	}
	return s, nil
}

func (a orchestrationRuleArgs) destination(ctx context.Context) (ruleDestinationArgs, error) {
	var d ruleDestinationArgs
	if a.Destination.IsNull() || a.Destination.IsUnknown() {
		return d, nil
	}
	if diags := a.Destination.As(ctx, &d, asOptions); diags.HasError() {
		return d, errors.New("destination is not an object of crypto, fiat or profile")
	}
	return d, nil
}

// request is the create request of the arguments with the given ref_id.
func (a orchestrationRuleArgs) request(ctx context.Context, refID string) (client.OrchestrationRuleRequest, error) {
	req := client.OrchestrationRuleRequest{
		RefID:            refID,
		Nickname:         knownString(a.Nickname),
		ProfileID:        knownString(a.ProfileID),
		IdentityID:       knownString(a.IdentityID),
		AccountID:        knownString(a.AccountID),
		SourceAsset:      knownString(a.SourceAsset),
		DestinationAsset: knownString(a.DestinationAsset),
	}
	src, err := a.source(ctx)
	if err != nil {
		return req, err
	}
	switch {
	case src.Crypto != nil:
		req.Source.Crypto = &client.RuleCryptoSourceRequest{Network: knownString(src.Crypto.Network)}
	case src.Fiat != nil:
		req.Source.Fiat = &client.RuleFiatSourceRequest{Network: knownString(src.Fiat.Network),
			AccountType: knownString(src.Fiat.AccountType)}
	}
	dst, err := a.destination(ctx)
	if err != nil {
		return req, err
	}
	switch {
	case dst.Crypto != nil:
		req.Destination = &client.RuleRequestDestination{Crypto: &client.RuleCryptoDestination{
			Address: knownString(dst.Crypto.Address), Network: knownString(dst.Crypto.Network)}}
	case dst.Fiat != nil:
		req.Destination = &client.RuleRequestDestination{Fiat: &client.RuleFiatDestination{
			FiatAccountID: knownString(dst.Fiat.FiatAccountID), Memo: knownString(dst.Fiat.Memo)}}
	case dst.Profile != nil:
		req.Destination = &client.RuleRequestDestination{Profile: &client.RuleProfileDestination{
			ProfileID: knownString(dst.Profile.ProfileID)}}
	}
	return req, nil
}

// ruleTarget is where the rule of req routes deposits, in a few words:
// an address on a network, a fiat account or a profile (its own profile
// when it names no destination).
func ruleTarget(req client.OrchestrationRuleRequest) string {
	d := req.Destination
	switch {
	case d == nil:
		return "profile " + req.ProfileID
	case d.Crypto != nil:
		return d.Crypto.Address + " on " + d.Crypto.Network
	case d.Fiat != nil:
		return "fiat account " + d.Fiat.FiatAccountID
	case d.Profile != nil:
		return "profile " + d.Profile.ProfileID
	}
	return "profile " + req.ProfileID
}

// ruleSourceText is what the rule of req watches, in a few words.
func ruleSourceText(req client.OrchestrationRuleRequest) string {
	switch s := req.Source; {
	case s.Crypto != nil:
		return s.Crypto.Network
	case s.Fiat != nil:
		return s.Fiat.Network + " " + s.Fiat.AccountType
	}
	return "no source"
}

// summary describes the rule of a in a few words, for messages: "USDC
// deposits on ETHEREUM to USDG, to 0x… on ETHEREUM, for profile p".
func (a orchestrationRuleArgs) summary() string {
	req, _ := a.request(context.Background(), "")
	return fmt.Sprintf("%s deposits on %s to %s, to %s, for profile %s", atApply(a.SourceAsset), ruleSourceText(req),
		atApply(a.DestinationAsset), ruleTarget(req), atApply(a.ProfileID))
}

// orchestrationRuleSummary describes an answered rule in a few words, its
// text as it may be shown.
func orchestrationRuleSummary(r *client.OrchestrationRule) string {
	return shown(fmt.Sprintf("%s deposits to %s, to %s, for profile %s, status %s", deref(r.SourceAsset),
		deref(r.DestinationAsset), answeredTarget(r), deref(r.ProfileID), deref(r.Status)))
}

// answeredTarget is where an answered rule routes deposits.
func answeredTarget(r *client.OrchestrationRule) string {
	d := r.Destination
	switch {
	case d == nil:
		return "profile " + deref(r.ProfileID)
	case d.Crypto != nil:
		return deref(d.Crypto.Address) + " on " + deref(d.Crypto.Network)
	case d.Fiat != nil:
		return "fiat account " + deref(d.Fiat.FiatAccountID)
	case d.Profile != nil:
		return "profile " + deref(d.Profile.ProfileID)
	}
	return "profile " + deref(r.ProfileID)
}

// orchestrationRuleDifferences lists how the rule r differs from the
// request req: every field of the request, each optional one only when
// it was sent; its id must be usable.
func orchestrationRuleDifferences(req client.OrchestrationRuleRequest, r *client.OrchestrationRule) []string {
	var out []string
	out = differ(out, "profile_id", req.ProfileID, r.ProfileID, exactly)
	out = differ(out, "source_asset", req.SourceAsset, r.SourceAsset, exactly)
	out = differ(out, "destination_asset", req.DestinationAsset, r.DestinationAsset, exactly)
	if req.RefID != "" {
		out = differ(out, "ref_id", req.RefID, r.RefID, exactly)
	}
	for _, f := range []struct {
		name, requested string
		answered        *string
	}{
		{"nickname", req.Nickname, r.Nickname},
		{"identity_id", req.IdentityID, r.IdentityID},
		{"account_id", req.AccountID, r.AccountID},
	} {
		if f.requested != "" {
			out = differ(out, f.name, f.requested, f.answered, exactly)
		}
	}
	src := r.Source
	switch s := req.Source; {
	case s.Crypto != nil && (src == nil || src.Crypto == nil):
		out = append(out, "source: requested crypto, answered "+answeredSourceKind(src))
	case s.Crypto != nil:
		out = differ(out, "source.crypto.network", s.Crypto.Network, src.Crypto.Network, exactly)
	case s.Fiat != nil && (src == nil || src.Fiat == nil):
		out = append(out, "source: requested fiat, answered "+answeredSourceKind(src))
	case s.Fiat != nil:
		out = differ(out, "source.fiat.network", s.Fiat.Network, src.Fiat.Network, exactly)
		out = differ(out, "source.fiat.account_type", s.Fiat.AccountType, src.Fiat.AccountType, exactly)
	}
	out = append(out, destinationDifferences(req.Destination, r.Destination)...)
	if why := unusableID(deref(r.ID)); why != "" {
		out = append(out, "id: answered "+why)
	}
	return out
}

// answeredSourceKind names the kind of an answered source.
func answeredSourceKind(s *client.OrchestrationRuleSource) string {
	switch {
	case s == nil:
		return "none"
	case s.Crypto != nil:
		return "crypto"
	case s.Fiat != nil:
		return "fiat"
	case s.Profile != nil:
		return "profile"
	}
	return "none"
}

// destinationDifferences lists how an answered destination differs from
// the requested one: where a rule routes money must come back as sent.
func destinationDifferences(req *client.RuleRequestDestination, d *client.OrchestrationRuleTarget) []string {
	kind := func(d *client.OrchestrationRuleTarget) string {
		switch {
		case d == nil:
			return "none"
		case d.Crypto != nil:
			return "crypto"
		case d.Fiat != nil:
			return "fiat"
		case d.Profile != nil:
			return "profile"
		}
		return "none"
	}
	var out []string
	switch {
	case req == nil:
		if k := kind(d); k != "none" {
			out = append(out, "destination: requested none, answered "+k)
		}
	case req.Crypto != nil && kind(d) == "crypto":
		out = differ(out, "destination.crypto.address", req.Crypto.Address, d.Crypto.Address, exactly)
		out = differ(out, "destination.crypto.network", req.Crypto.Network, d.Crypto.Network, exactly)
	case req.Fiat != nil && kind(d) == "fiat":
		out = differ(out, "destination.fiat.fiat_account_id", req.Fiat.FiatAccountID, d.Fiat.FiatAccountID, exactly)
		if req.Fiat.Memo != "" {
			out = differ(out, "destination.fiat.memo", req.Fiat.Memo, d.Fiat.Memo, exactly)
		}
	case req.Profile != nil && kind(d) == "profile":
		out = differ(out, "destination.profile.profile_id", req.Profile.ProfileID, d.Profile.ProfileID, exactly)
	default:
		want := "profile"
		if req.Crypto != nil {
			want = "crypto"
		} else if req.Fiat != nil {
			want = "fiat"
		}
		out = append(out, "destination: requested "+want+", answered "+kind(d))
	}
	return out
}

// orchestrationRuleModel is one rule: its arguments and the computed
// attributes of orchestrationRuleShape (and the manifest).
type orchestrationRuleModel shapedState[orchestrationRuleArgs]

// fromAPI sets m from the rule r. Computed attributes take the answered
// values, the manifest staying as the plan saw it; an argument keeps a
// known value of m (what was configured) and otherwise takes the answered
// one.
func (m *orchestrationRuleModel) fromAPI(r *client.OrchestrationRule, diags *diag.Diagnostics) {
	a := &m.args
	for _, f := range []struct {
		cur      *types.String
		answered *string
	}{
		{&a.ProfileID, r.ProfileID}, {&a.Nickname, r.Nickname}, {&a.SourceAsset, r.SourceAsset},
		{&a.DestinationAsset, r.DestinationAsset}, {&a.IdentityID, r.IdentityID}, {&a.AccountID, r.AccountID},
		{&a.RefID, r.RefID},
	} {
		*f.cur = keepOr(*f.cur, stringValue(f.answered))
	}
	if a.Source.IsNull() || a.Source.IsUnknown() {
		a.Source = answeredSource(r.Source, diags)
	}
	if a.Destination.IsNull() || a.Destination.IsUnknown() {
		a.Destination = answeredDestination(r.Destination, diags)
	}
	if a.WaitForActive.IsUnknown() {
		a.WaitForActive = types.StringNull()
	}
	followAnswer((*shapedState[orchestrationRuleArgs])(m), orchestrationRuleShape.attrValues(r, diags))
}

// ruleDrift is what a refresh found changed at the service: each argument
// the answer reports differently from the state, as "name: recorded …,
// answered …", and, when the destination changed, where the rule sent
// deposits before and sends them now.
type ruleDrift struct {
	changed  []string
	from, to string
}

// refreshFromAPI sets m from the rule r that a refresh read: every
// argument the service reports follows its answer, so that a change made
// at the service shows in the plan as a difference with the configuration
// (a replacement: a rule has no update). An argument the answer leaves out
// is not reported and keeps its value; an optional one the create did not
// send (recorded null: a nickname, a fiat memo) keeps null, whatever
// default the service gave it. The computed attributes take the answer.
func (m *orchestrationRuleModel) refreshFromAPI(ctx context.Context, r *client.OrchestrationRule, diags *diag.Diagnostics) ruleDrift {
	var drift ruleDrift
	a := &m.args
	for _, f := range []struct {
		name     string
		cur      *types.String
		answered *string
		sentOnly bool
	}{
		{"nickname", &a.Nickname, r.Nickname, true},
		{"source_asset", &a.SourceAsset, r.SourceAsset, false},
		{"destination_asset", &a.DestinationAsset, r.DestinationAsset, false},
		{"identity_id", &a.IdentityID, r.IdentityID, false},
		{"account_id", &a.AccountID, r.AccountID, false},
	} {
		answered := stringValue(f.answered)
		switch {
		case answered.IsNull(), f.sentOnly && f.cur.IsNull(), answered.Equal(*f.cur):
		case f.cur.IsNull() || f.cur.IsUnknown():
			// An optional and computed argument the service now reports.
			*f.cur = answered
		default:
			drift.changed = append(drift.changed, fmt.Sprintf("%s: recorded %q, answered %q", f.name,
				f.cur.ValueString(), shown(answered.ValueString())))
			*f.cur = answered
		}
	}
	if r.Source != nil && (r.Source.Crypto != nil || r.Source.Fiat != nil) {
		if src := answeredSource(r.Source, diags); !src.Equal(a.Source) {
			before, _ := a.request(ctx, "")
			drift.changed = append(drift.changed, fmt.Sprintf("source: recorded %s, answered %s",
				ruleSourceText(before), shown(answeredSourceText(r.Source))))
			a.Source = src
		}
	}
	dst := answeredDestination(r.Destination, diags)
	if a.Destination.IsUnknown() {
		a.Destination = dst
	} else if dst = keepUnsentMemo(ctx, dst, a.Destination, diags); !dst.Equal(a.Destination) {
		before, _ := a.request(ctx, "")
		drift.from, drift.to = ruleTarget(before), shown(answeredTarget(r))
		if before.Destination == nil {
			drift.from = "no destination (its own " + drift.from + ")"
		}
		if r.Destination == nil {
			drift.to = "no destination (its own " + drift.to + ")"
		}
		drift.changed = append(drift.changed, fmt.Sprintf("destination: recorded %s, answered %s", drift.from, drift.to))
		a.Destination = dst
	}
	if a.WaitForActive.IsUnknown() {
		a.WaitForActive = types.StringNull()
	}
	followAnswer((*shapedState[orchestrationRuleArgs])(m), orchestrationRuleShape.attrValues(r, diags))
	return drift
}

// keepUnsentMemo is the answered destination dst with the memo of a fiat
// destination null when the recorded one has none: a memo the create did
// not send is the service's default, not a change.
func keepUnsentMemo(ctx context.Context, dst, recorded types.Object, diags *diag.Diagnostics) types.Object {
	if dst.IsNull() || recorded.IsNull() || recorded.IsUnknown() {
		return dst
	}
	var got, had ruleDestinationArgs
	if dst.As(ctx, &got, asOptions).HasError() || recorded.As(ctx, &had, asOptions).HasError() {
		return dst
	}
	if got.Fiat == nil || had.Fiat == nil || !had.Fiat.Memo.IsNull() || got.Fiat.Memo.IsNull() {
		return dst
	}
	vals := dst.Attributes()
	vals["fiat"] = ruleObject(ruleFiatDestinationType, map[string]attr.Value{
		"fiat_account_id": got.Fiat.FiatAccountID, "memo": types.StringNull()}, diags)
	return ruleObject(types.ObjectType{AttrTypes: ruleDestinationTypes}, vals, diags)
}

// answeredSourceText is what an answered source watches, in a few words.
func answeredSourceText(s *client.OrchestrationRuleSource) string {
	switch {
	case s == nil:
		return "no source"
	case s.Crypto != nil:
		return deref(s.Crypto.Network)
	case s.Fiat != nil:
		return deref(s.Fiat.Network) + " " + deref(s.Fiat.AccountType)
	}
	return "no source"
}

// answeredSource is the source argument of an answered rule.
func answeredSource(s *client.OrchestrationRuleSource, diags *diag.Diagnostics) types.Object {
	crypto, fiat := types.ObjectNull(ruleCryptoSourceType.AttrTypes), types.ObjectNull(ruleFiatSourceType.AttrTypes)
	switch {
	case s == nil:
		return types.ObjectNull(ruleSourceTypes)
	case s.Crypto != nil:
		crypto = ruleObject(ruleCryptoSourceType, map[string]attr.Value{"network": stringValue(s.Crypto.Network)}, diags)
	case s.Fiat != nil:
		fiat = ruleObject(ruleFiatSourceType, map[string]attr.Value{
			"network": stringValue(s.Fiat.Network), "account_type": stringValue(s.Fiat.AccountType)}, diags)
	}
	return ruleObject(types.ObjectType{AttrTypes: ruleSourceTypes}, map[string]attr.Value{"crypto": crypto, "fiat": fiat}, diags)
}

// answeredDestination is the destination argument of an answered rule.
func answeredDestination(d *client.OrchestrationRuleTarget, diags *diag.Diagnostics) types.Object {
	vals := map[string]attr.Value{
		"crypto":  types.ObjectNull(ruleCryptoDestinationType.AttrTypes),
		"fiat":    types.ObjectNull(ruleFiatDestinationType.AttrTypes),
		"profile": types.ObjectNull(ruleProfileDestinationType.AttrTypes),
	}
	switch {
	case d == nil:
		return types.ObjectNull(ruleDestinationTypes)
	case d.Crypto != nil:
		vals["crypto"] = ruleObject(ruleCryptoDestinationType, map[string]attr.Value{
			"address": stringValue(d.Crypto.Address), "network": stringValue(d.Crypto.Network)}, diags)
	case d.Fiat != nil:
		vals["fiat"] = ruleObject(ruleFiatDestinationType, map[string]attr.Value{
			"fiat_account_id": stringValue(d.Fiat.FiatAccountID), "memo": stringValue(d.Fiat.Memo)}, diags)
	case d.Profile != nil:
		vals["profile"] = ruleObject(ruleProfileDestinationType, map[string]attr.Value{
			"profile_id": stringValue(d.Profile.ProfileID)}, diags)
	default:
		return types.ObjectNull(ruleDestinationTypes)
	}
	return ruleObject(types.ObjectType{AttrTypes: ruleDestinationTypes}, vals, diags)
}

// ruleObject is the object of type t with vals.
func ruleObject(t types.ObjectType, vals map[string]attr.Value, diags *diag.Diagnostics) types.Object {
	obj, d := types.ObjectValue(t.AttrTypes, vals)
	diags.Append(d...)
	return obj
}

// set writes m to dst, whose schema is sch.
func (m orchestrationRuleModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[orchestrationRuleArgs](m))
}
