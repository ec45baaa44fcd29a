package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Money flows: a money movement the service makes once per ref_id and
// never changes (a fiat withdrawal, an internal transfer, a stablecoin
// conversion), declared by its arguments alone. A flow lists each argument
// once (flowArg: its attribute, its request field, the answered field it
// must come back as); the core derives the rest from that table: the
// resource's schema and the action's, the request, the comparison of an
// answer with the request and with the state, the state of an answer, the
// refresh policy and the words of the lifecycle's messages. A flow is a
// money movement (moves): the guards and the manifest come with it.
//
// Every argument change is a replacement, which moves money again; a
// destroy only forgets, since the service reverses none of them; a refresh
// follows the object's status and never changes an argument.

// flowArg is one argument of a money flow of arguments A, request R and
// object T: a string, or a JSON object (json). Adding an argument to a
// flow is one flowArg.
type flowArg[A, R, T any] struct {
	name, description string
	required          bool
	// recordsAnswer: unset, the argument takes the service's answer (an
	// identity, a ref_id derived at plan, the total of an amount).
	recordsAnswer bool
	// equal compares a requested value with the answered one: nil is
	// exactly, decimalEqual by value, strings.EqualFold for an asset or a
	// network.
	equal func(requested, answered string) bool
	// mayBeUnreported: the service's answer may lack it (nil got): then
	// it is not compared, and after an import, setting it only records it.
	mayBeUnreported bool
	// applyOnly: it is not sent and not part of the derived ref_id; it
	// only rules how the object is sent (a crypto withdrawal's max_fee),
	// so changing it on an object already made only records it.
	applyOnly bool
	// notListed: configuration generated from a list leaves it unset (a
	// total, beside the amount it declares).
	notListed bool
	// json: the value is a JSON object (jsontypes.Normalized, whose
	// StringValue arg returns), sent as it is (reqJSON).
	json       bool
	validators []validator.String
	// arg is the argument, req its request field (reqJSON for a JSON
	// one; neither for an applyOnly one), got its answered field (nil:
	// the service never reports it, so after an import, setting it only
	// records it).
	arg     func(*A) *types.String
	req     func(*R) *string
	reqJSON func(*R) *json.RawMessage
	got     func(T) *string
}

// flow declares a money flow: how its objects are read, its texts, its
// arguments, and one group of settings for each phase of an object (its
// plan, its create, the judgement of an answer).
type flow[A, O, R any] struct {
	// objects is how the core reads the flow's objects (by id, by ref_id,
	// in lists) and describes them.
	objects moneyObjects[*O]
	texts   flowTexts
	// args are the arguments, one row each; metadata is the metadata
	// argument; computed is the object's shape less the arguments.
	args     []flowArg[A, R, *O]
	metadata flowMetadata[A, O, R]
	computed objectShape[O]
	plan     flowPlan[A, O]
	create   flowCreate[A, O, R]
	answer   flowAnswer[O, R]
}

// flowTexts are what a flow says beyond its words and its arguments.
type flowTexts struct {
	// description is the resource's description; actionDescription the
	// action's, to which the core adds what every money action says.
	description, actionDescription string
	// idNoun is what the id names, in the id's description and the
	// identity (default: the noun).
	idNoun string
	// irreversible says, in a sentence, why a destroy only forgets.
	irreversible string
}

// flowMetadata is the metadata argument of a flow, its request field and
// its answered field.
type flowMetadata[A, O, R any] struct {
	arg func(*A) *types.Map
	req func(*R) *map[string]string
	got func(*O) map[string]string
}

// flowPlan is what the plan of an object of a flow needs.
type flowPlan[A, O any] struct {
	// moves is what the object of a moves: its manifest and what the
	// guards judge.
	moves func(A) movement
	// summary describes the object of a in a few words.
	summary func(A) string
	// validators are the configuration validators.
	validators []resource.ConfigValidator
	// unlisted, when set, says why configuration generated from a list
	// cannot declare obj ("" when it can).
	unlisted func(obj *O) string
}

// flowCreate is how an object of a flow is sent.
type flowCreate[A, O, R any] struct {
	// post and existing: see moneyType.
	post     func(ctx context.Context, c *client.Client, body R) (*O, error)
	existing func(err error) (*O, bool)
	// send, when set, is what the flow does around the post of body (a
	// guaranteed fee quoted first): see moneyType.send. Shared by the
	// resource and the action.
	send func(ctx context.Context, run *moneyRun, a A, body R, post corePost[R, *O]) (createResult[*O], diag.Diagnostics)
	// found, when set, checks an object of a recorded without sending as
	// send checks one it adopts (see moneyType.found).
	found func(a A, res createResult[*O], diags *diag.Diagnostics)
}

// flowAnswer is how the core judges an answered object of a flow, and
// what it says of it.
type flowAnswer[O, R any] struct {
	// foreign, when set, lists why an answered object is not of this flow
	// (a transfer of another type), checked on every answer and on import
	// (default: every object of the flow's answers is its own).
	foreign func(obj *O) []string
	// invariants lists how obj breaks what an answer to body must keep
	// beyond its arguments (amount plus fee is total; the credit side of an
	// internal transfer), checked with them on every answer.
	invariants func(body R, obj *O) []string
	// unverified says what of obj the provider could not check (a credit
	// side the service does not list yet, a fee nothing bounded): warned
	// of when the object is made or adopted, never recorded in silence.
	unverified func(obj *O) []string
	// failed reports an answered status that means the money did not
	// move; said, when set, what the service says of it.
	failed func(obj *O) bool
	said   func(obj *O) string
	// figures, when set, says the figures of an answered object (amount,
	// fee, total), for the action's progress.
	figures func(obj *O) string
}

// whyForeign lists why obj is not of f (foreign; nothing when f has no
// foreign).
func (f *flow[A, O, R]) whyForeign(obj *O) []string {
	if f.answer.foreign == nil {
		return nil
	}
	return f.answer.foreign(obj)
}

// changeNote ends the description of every argument of a flow.
func (f *flow[A, O, R]) changeNote() string {
	w := f.objects.words
	return fmt.Sprintf(" **Changing it %s a NEW %s**: Terraform plans a replacement, which moves the money again; "+
		"the %s already %s is not reversed.", doesVerb(w), w.noun, w.noun, w.made)
}

// replaceWhenConfigured forces the replacement of an object of w when an
// argument its configuration sets changes; left unset (computed), the
// argument follows the configured arguments and names no reason of its own.
func replaceWhenConfigured(w createWords) planmodifier.String {
	text := fmt.Sprintf("Changing the value, when the configuration sets it, %s a new %s.", doesVerb(w), w.noun)
	return stringplanmodifier.RequiresReplaceIf(
		func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.ConfigValue.IsNull()
		}, text, text)
}

// replaceUnlessRecordedAfterImport is the plan modifier of an argument the
// service may not report: a change is a new object of w, except setting it
// on an imported one whose state cannot know it: that only records the
// configured value.
func replaceUnlessRecordedAfterImport(w createWords) planmodifier.String {
	text := fmt.Sprintf("Changing it %s a new %s, except on an imported %s whose value the service does not "+
		"report: then the configured value is recorded.", doesVerb(w), w.noun, w.noun)
	return stringplanmodifier.RequiresReplaceIf(
		func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.StateValue.IsNull() || !imported(ctx, req.Private)
		}, text, text)
}

// idNames is what the id of an object of f names.
func (f *flow[A, O, R]) idNames() string {
	if f.texts.idNoun != "" {
		return f.texts.idNoun
	}
	return f.objects.words.noun
}

// schema is the resource's schema: each argument forces a replacement,
// except those whose change is recorded in place (inPlace).
func (f *flow[A, O, R]) schema() schema.Schema {
	w := f.objects.words
	attrs := map[string]schema.Attribute{}
	for _, a := range f.args {
		mods := []planmodifier.String{stringplanmodifier.RequiresReplace()}
		desc := a.description + f.changeNote()
		switch {
		case a.applyOnly:
			mods = nil
			desc = a.description + fmt.Sprintf(" Changing it on %s already %s only records it: nothing is %s.",
				aNoun(w.noun), w.made, w.made)
		case a.got == nil:
			mods = []planmodifier.String{replaceUnlessRecordedAfterImport(w)}
			desc += " The service does not report it: after an import, setting it only records it."
		case a.recordsAnswer:
			mods = []planmodifier.String{replaceWhenConfigured(w)}
		case a.mayBeUnreported:
			mods = []planmodifier.String{replaceUnlessRecordedAfterImport(w)}
			desc += " When the service does not report it, setting it on an imported " + w.noun +
				" only records it."
		}
		attr := schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            a.required,
			Optional:            !a.required,
			Computed:            a.recordsAnswer,
			Validators:          a.validators,
			PlanModifiers:       mods,
		}
		if a.json {
			attr.CustomType = jsontypes.NormalizedType{}
		}
		attrs[a.name] = attr
	}
	attrs["metadata"] = schema.MapAttribute{
		MarkdownDescription: metadataDescription("the "+w.noun) + f.changeNote(),
		ElementType:         types.StringType,
		Optional:            true,
		Validators:          metadataValidators(),
		PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
	}
	f.computed.computedInto(attrs, allButStatus)
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the " + f.idNames() + ".",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs[moneyAttribute] = moneySchema()
	return schema.Schema{MarkdownDescription: f.texts.description, Attributes: attrs}
}

// request is the create request of a with refID: every argument but the
// applyOnly ones, unknown values left out.
func (f *flow[A, O, R]) request(ctx context.Context, a A, refID string) (R, error) {
	var r R
	for _, arg := range f.args {
		v := *arg.arg(&a)
		switch {
		case arg.reqJSON != nil:
			if s := knownString(v); s != "" {
				*arg.reqJSON(&r) = json.RawMessage(s)
			}
		case arg.req != nil:
			*arg.req(&r) = knownString(v)
		}
	}
	*f.refIDArg().req(&r) = refID
	m := *f.metadata.arg(&a)
	if !m.IsNull() && !m.IsUnknown() {
		md := map[string]string{}
		if d := m.ElementsAs(ctx, &md, false); d.HasError() {
			return r, errors.New("metadata is not a map of strings")
		}
		*f.metadata.req(&r) = md
	}
	return r, nil
}

// differences lists how obj differs from the request body: every field
// the request sets must come back equal (by the argument's comparer), an
// optional argument it leaves unset must come back absent (unless the
// argument records the service's answer), the object must be of this
// flow and keep its invariants, and its id must be usable.
func (f *flow[A, O, R]) differences(body R, obj *O) []string {
	var out []string
	for _, arg := range f.args {
		if arg.req == nil || arg.got == nil {
			continue
		}
		requested := *arg.req(&body)
		if requested == "" && !arg.recordsAnswer {
			if got := arg.got(obj); got != nil && *got != "" {
				out = append(out, fmt.Sprintf("%s: requested none, answered %q", arg.name, shown(*got)))
			}
			continue
		}
		if requested == "" || (arg.mayBeUnreported && arg.got(obj) == nil) {
			continue
		}
		equal := arg.equal
		if equal == nil {
			equal = exactly
		}
		out = differ(out, arg.name, requested, arg.got(obj), equal)
	}
	if m := metadataDifference(*f.metadata.req(&body), f.metadata.got(obj)); m != "" {
		out = append(out, m)
	}
	out = append(out, f.whyForeign(obj)...)
	if f.answer.invariants != nil {
		out = append(out, f.answer.invariants(body, obj)...)
	}
	if why := unusableID(f.objects.id(obj)); why != "" {
		out = append(out, "id: answered "+why)
	}
	return out
}

// fromObject sets m from obj: an argument keeps a known value (what was
// configured) and otherwise takes the answered one; the computed
// attributes follow obj, but the manifest stays as the plan that made the
// object saw it.
func (f *flow[A, O, R]) fromObject(m *shapedState[A], obj *O, diags *diag.Diagnostics) {
	w := f.objects.words
	for _, arg := range f.args {
		if arg.got != nil {
			*arg.arg(&m.args) = keepOr(*arg.arg(&m.args), stringValue(arg.got(obj)))
		} else if v := arg.arg(&m.args); v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	if md := f.metadata.arg(&m.args); md.IsNull() || md.IsUnknown() {
		*md = stringMapValue(f.metadata.got(obj))
	}
	followAnswer(m, f.computed.attrValues(obj, diags))
	if f.answer.failed != nil && f.answer.failed(obj) {
		status := shown(f.objects.status(obj))
		said := ""
		if f.answer.said != nil {
			if s := f.answer.said(obj); s != "" {
				said = " The service says: " + shown(s) + "."
			}
		}
		diags.AddWarning(w.title+" "+status,
			fmt.Sprintf("The service reports the %s %s (ref_id %s, %s) as %s: the money did not move.%s It stays in "+
				"the state as recorded and is never %s again on its own; to make it again on purpose, give it a new "+
				"ref_id (or change an argument), which plans a new one.", w.noun, f.objects.shownID(obj),
				shownRef(f.refIDOf(obj)), shown(f.plan.summary(m.args)), status, said, w.made))
	}
}

// warnUnverified warns of what of obj the provider could not check.
func (f *flow[A, O, R]) warnUnverified(obj *O, diags *diag.Diagnostics) {
	if f.answer.unverified == nil {
		return
	}
	if u := f.answer.unverified(obj); len(u) > 0 {
		diags.AddWarning(f.objects.words.title+" recorded with parts not checked",
			fmt.Sprintf("The service's answer for the %s %s was compared with the request, but these parts of it "+
				"could not be checked, and are recorded as the service answered them:\n%s", f.objects.words.noun,
				f.objects.shownID(obj), bulletList(u)))
	}
}

// declare is the money-core declaration of f.
func (f *flow[A, O, R]) declare() moneyType[A, *O, R] {
	w := f.objects.words
	refIDArg := f.refIDArg()
	var firstRequired flowArg[A, R, *O]
	for _, a := range f.args {
		if a.required && firstRequired.arg == nil {
			firstRequired = a
		}
	}
	refOf := func(m shapedState[A]) string { return refIDArg.arg(&m.args).ValueString() }
	return moneyType[A, *O, R]{
		objects:  f.objects,
		schema:   f.schema,
		identity: f.idNames(),
		// A money movement keeps its state whatever a refresh finds:
		// forgetting it would plan to move the money again.
		refresh: refreshPolicy{scopeRefused: keepWithWarning, gone: keepWithWarning, another: failKeepingState},
		say: lifecycleWords[A]{
			destroy: &message{fmt.Sprintf("Destroying %s does not reverse it", aNoun(w.noun)),
				fmt.Sprintf("Destroy only removes the %s from the Terraform state: %s No API call is made.",
					w.noun, f.texts.irreversible)},
			notRefreshed: fmt.Sprintf("The %s keep the status recorded when they were %s; nothing else is "+
				"affected, and nothing is sent.", w.plural, w.made),
			gone: func(m shapedState[A]) message {
				return message{w.title + " not found at the service",
					fmt.Sprintf("The service does not know the %s %s (ref_id %s) any more. The state is kept as "+
						"recorded, and nothing is sent.", w.noun, id(m).ValueString(), refOf(m))}
			},
			forgotten: func(m shapedState[A]) message {
				return message{w.title + " removed from state only",
					fmt.Sprintf("The %s %s (ref_id %s) was removed from the Terraform state. No API call was made: "+
						"%s", w.noun, id(m).ValueString(), refOf(m), f.texts.irreversible)}
			},
		},
		plan: typePlan[A]{
			validators: f.plan.validators,
			refID:      refIDArg.arg,
			unread:     func(a A) bool { return firstRequired.arg(&a).IsNull() },
			summary:    f.plan.summary,
			moves:      f.plan.moves,
		},
		create: typeCreate[A, *O, R]{
			request:  f.request,
			post:     f.create.post,
			existing: f.create.existing,
			found:    f.create.found,
			differences: func(body R, obj *O) []string {
				return f.differences(body, obj)
			},
			created: func(_ context.Context, m *shapedState[A], obj *O, outcome createOutcome, diags *diag.Diagnostics) {
				f.fromObject(m, obj, diags)
				f.warnUnverified(obj, diags)
				// A plan that could not derive the ref_id left sends unknown:
				// the apply knows.
				m.computed[moneyAttribute] = withSends(m.computed[moneyAttribute], outcome == outcomeConfirmed,
					f.plan.moves(m.args), doesVerb(w))
			},
			send: f.create.send,
		},
		read: typeRead[A, *O]{
			recorded: func(ctx context.Context, m shapedState[A], obj *O) []string {
				body, _ := f.request(ctx, m.args, refOf(m))
				return f.differences(body, obj)
			},
			importable: func(id string, obj *O) []string {
				d := recordedDifferences(types.StringValue(id), f.objects.id(obj), nil)
				return append(d, f.whyForeign(obj)...)
			},
			refreshed: func(_ context.Context, m *shapedState[A], obj *O, diags *diag.Diagnostics) {
				f.fromObject(m, obj, diags)
			},
			adopt: func(_ context.Context, m *shapedState[A], obj *O, diags *diag.Diagnostics) {
				f.fromObject(m, obj, diags)
				f.warnUnverified(obj, diags)
			},
		},
		change: typeChange[A]{
			planChange: f.planChange,
		},
	}
}

// planChange plans an object whose configuration changed: the in-place
// record of what sends nothing (inPlace), or else a replacement, which
// moves the money again, said in full.
func (f *flow[A, O, R]) planChange(ctx context.Context, _ *moneyRun, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[A]) {
	plan, ok := readShaped[A](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if next, ok := f.inPlace(ctx, req, plan, state); ok {
		// Nothing is sent: the plan is the state with the arguments
		// recorded in place.
		resp.Diagnostics.Append(setShaped(ctx, &resp.Plan, resp.Plan.Schema, next)...)
		return
	}
	w := f.objects.words
	resp.Diagnostics.AddWarning(fmt.Sprintf("Changing %s %s a NEW %s", aNoun(w.noun), doesVerb(w), w.noun),
		f.replacementDetail(ctx, req, state))
}

// inPlace is the state with the changes of plan recorded, when each of
// them sends nothing: an applyOnly argument, or one the service does not
// report set on an imported object whose state lacks it (the plan
// modifiers' rules, replaceUnlessRecordedAfterImport); a computed
// argument the configuration leaves unset follows the others.
func (f *flow[A, O, R]) inPlace(ctx context.Context, req resource.ModifyPlanRequest, plan, state shapedState[A]) (shapedState[A], bool) {
	next := state
	importedObject := imported(ctx, req.Private)
	for _, a := range f.args {
		p, s := *a.arg(&plan.args), *a.arg(&state.args)
		switch {
		case a.applyOnly:
			*a.arg(&next.args) = p
		case p.Equal(s), p.IsUnknown() && a.recordsAnswer:
		case (a.got == nil || a.mayBeUnreported) && importedObject && s.IsNull():
			*a.arg(&next.args) = p
		default:
			return state, false
		}
	}
	return next, f.metadata.arg(&plan.args).Equal(*f.metadata.arg(&state.args))
}

// replacementDetail tells a reviewer where the money of a replacement
// goes: what changed, the new object in full with its ref_id, which the
// plan's diff hides in part, and that the one already made stays made.
func (f *flow[A, O, R]) replacementDetail(ctx context.Context, req resource.ModifyPlanRequest, state shapedState[A]) string {
	w := f.objects.words
	var now, was map[string]tftypes.Value
	_ = req.Config.Raw.As(&now)
	_ = req.State.Raw.As(&was)
	var changed []string
	for _, a := range append(f.args, flowArg[A, R, *O]{name: "metadata", json: true}) {
		n, p := now[a.name], was[a.name]
		if a.applyOnly || n.IsNull() || n.Equal(p) {
			continue
		}
		var ns, ps string
		if !a.json && n.IsKnown() && n.As(&ns) == nil && p.As(&ps) == nil {
			changed = append(changed, fmt.Sprintf("%s %s → %s", a.name, shownValue(ps), shownValue(ns)))
			continue
		}
		changed = append(changed, a.name)
	}
	next := fmt.Sprintf("The new %s's arguments are known only at apply; its ref_id too.", w.noun)
	if config, d := getShaped[A](ctx, req.Config); !d.HasError() && req.Config.Raw.IsFullyKnown() {
		refID, origin := knownString(*f.refIDArg().arg(&config.args)), "configured"
		if refID == "" {
			body, _ := f.request(ctx, config.args, "")
			refID, _ = derivedRefID(w.refNamespace, body)
			origin = "derived from its arguments"
		}
		next = fmt.Sprintf("Applying %s a NEW %s: %s, ref_id %s (%s).", doesVerb(w), w.noun, f.plan.summary(config.args),
			shownRef(refID), origin)
	}
	what := "Its arguments changed"
	if len(changed) > 0 {
		what = "Changed: " + strings.Join(changed, ", ")
	}
	refID := f.refIDArg().arg(&state.args).ValueString()
	return fmt.Sprintf("%s. %s\n\nThe service cannot change %s, so Terraform plans a replacement. The %s already "+
		"%s, %s (%s, ref_id %s), stays %s: it is not reversed, and the replacement only removes it from the state. "+
		"If that is not what you want, restore the previous arguments.", what, next, aNoun(w.noun), w.noun, w.made,
		shown(id(state).ValueString()), f.plan.summary(state.args), shownRef(refID), w.made)
}

// shownValue quotes an argument's value for a message, "unset" when empty.
func shownValue(v string) string {
	if v == "" {
		return "unset"
	}
	return strconv.Quote(shown(v))
}

// moneyFigure is the figure of a movement of amount or total: the one
// set, and its name.
func moneyFigure(amount, total types.String) (types.String, string) {
	if amount.IsNull() && !total.IsNull() {
		return total, "total"
	}
	return amount, "amount"
}

// flowRefID is the ref_id argument of a flow of the words w.
func flowRefID[A, R, T any](w createWords, arg func(*A) *types.String, req func(*R) *string, got func(T) *string) flowArg[A, R, T] {
	return flowArg[A, R, T]{name: "ref_id", recordsAnswer: true,
		description: fmt.Sprintf("Client-specified id that protects the %s against replays: the service never "+
			"makes two with the same `ref_id`. When unset, it is derived from the other arguments at plan (a "+
			"name-based UUID of the request, shown in the plan), so every plan and run of the same declared %s "+
			"sends the same `ref_id`; two identical ones in one configuration are refused, and making the same "+
			"one again on purpose needs a new `ref_id`.", w.noun, w.noun),
		validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		arg:        arg, req: req, got: got}
}

// flowIdentity is the identity_id argument of a flow.
func flowIdentity[A, R, T any](arg func(*A) *types.String, req func(*R) *string, got func(T) *string) flowArg[A, R, T] {
	return flowArg[A, R, T]{name: "identity_id", recordsAnswer: true,
		description: "Identity of the user it is made for, for third-party integrations. When unset, the " +
			"service's answer (if any) is recorded.",
		validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		arg:        arg, req: req, got: got}
}

// flowAccount is the account_id argument of a flow.
func flowAccount[A, R, T any](arg func(*A) *types.String, req func(*R) *string, got func(T) *string) flowArg[A, R, T] {
	return flowArg[A, R, T]{name: "account_id", recordsAnswer: true,
		description: "Account associated with that identity. When unset, the service's answer (if any) is recorded.",
		validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
		arg:         arg, req: req, got: got}
}

// flowDescription is what every flow's resource says of its lifecycle.
func flowDescription(w createWords) string {
	return fmt.Sprintf("!> **Every change of an argument makes a NEW %s.** The service cannot change or reverse "+
		"one, so Terraform replaces the resource, which moves the money again; the one already made stays made. "+
		"Destroying the resource only removes it from the Terraform state.\n\n"+
		"Each %s carries a `ref_id`, the service's replay protection, fixed before anything is sent: configured, "+
		"or derived at plan from the arguments and shown in the plan. If the service does not confirm it (a "+
		"timeout, server errors until the retries run out, a run killed mid-apply), applying the same "+
		"configuration again sends the same `ref_id`, and when the service answers that it already made it, the "+
		"provider records that one instead of making another. A `ref_id` the service knows from a different "+
		"request is an error, and nothing is sent. Every answer is compared with the request, field by field.\n\n"+
		"It passes the provider's `withdrawal_guard` (`max_amount`, `max_run_total` and the others, by its asset) "+
		"at plan and again when it is sent, and its computed `money` says what it moves, for policies over the "+
		"plan. Each refresh follows its `status`, never its arguments: a refresh never plans a new one. One made "+
		"elsewhere is adopted with `terraform import` (or an `import` block, by `id` or, with Terraform 1.12+, by "+
		"`identity`); an object of another kind is refused, and nothing is sent.", w.noun, w.noun)
}

// refIDArg is the ref_id argument of f (flowRefID): every flow has one.
func (f *flow[A, O, R]) refIDArg() flowArg[A, R, *O] {
	for _, a := range f.args {
		if a.name == "ref_id" {
			return a
		}
	}
	panic("money flow " + f.objects.words.resourceType + " declares no ref_id argument")
}

// refIDOf is the ref_id obj was made with.
func (f *flow[A, O, R]) refIDOf(obj *O) string { return deref(f.refIDArg().got(obj)) }

// flowModel is the state of an object of a flow, as a list result writes
// it.
type flowModel[A any] shapedState[A]

func (m flowModel[A]) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[A](m))
}

// listed is the state of obj as configuration generated from a list
// declares it: every argument from obj, except those a configuration
// leaves unset (notListed: a total beside its amount).
func (f *flow[A, O, R]) listed(obj *O) flowModel[A] {
	var m shapedState[A]
	var diags diag.Diagnostics
	f.fromObject(&m, obj, &diags)
	for _, arg := range f.args {
		if arg.notListed {
			*arg.arg(&m.args) = types.StringNull()
		}
	}
	return flowModel[A](m)
}
