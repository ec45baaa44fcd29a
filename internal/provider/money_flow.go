package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

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

// flowArg is one string argument of a money flow of arguments A, request R
// and object T.
type flowArg[A, R, T any] struct {
	name, description string
	required          bool
	// recordsAnswer: unset, the argument takes the service's answer (an
	// identity, a ref_id derived at plan, the total of an amount).
	recordsAnswer bool
	// decimal: requested and answered values are compared as decimals.
	decimal bool
	// mayBeUnreported: the service's answer may lack it (nil got): then
	// it is not compared, and after an import, setting it only records it.
	mayBeUnreported bool
	// notListed: configuration generated from a list leaves it unset (a
	// total, beside the amount it declares).
	notListed  bool
	validators []validator.String
	// arg is the argument, req its request field, got its answered field
	// (nil: the service does not report it).
	arg func(*A) *types.String
	req func(*R) *string
	got func(T) *string
}

// flow declares a money flow.
type flow[A, O, R any] struct {
	kind moneyKind[*O]
	// description is the resource's description; the action's is derived
	// from actionDescription.
	description, actionDescription string
	args                           []flowArg[A, R, *O]
	// metadata is the metadata argument, its request field and answered
	// field.
	metadata    func(*A) *types.Map
	reqMetadata func(*R) *map[string]string
	gotMetadata func(*O) map[string]string
	// computed is the object's shape less the arguments.
	computed objectShape[O]
	// moves is what an object moves.
	moves func(A) movement
	// summary describes the object of a in a few words.
	summary func(A) string
	// post, existing, get and readScope: see moneyType.
	post      func(ctx context.Context, c *client.Client, body R) (*O, error)
	existing  func(err error) (*O, bool)
	get       func(ctx context.Context, c *client.Client, id string) (*O, error)
	readScope string
	// ofKind lists why an answered object is not of this flow (a transfer
	// of another type), checked on every answer and on import.
	ofKind func(obj *O) []string
	// unlisted, when set, says why configuration generated from a list
	// cannot declare obj ("" when it can).
	unlisted func(obj *O) string
	// failed reports an answered status that means the money did not move.
	failed func(obj *O) bool
	// invariants lists how obj breaks what an answer to body must keep
	// beyond its arguments (amount plus fee is total; the credit side of an
	// internal transfer), checked with them on every answer.
	invariants func(body R, obj *O) []string
	// unverified says what of obj the provider could not check (a credit
	// side the service does not list yet, a fee nothing bounded): warned
	// of when the object is made or adopted, never recorded in silence.
	unverified func(obj *O) []string
	// irreversible says, in a sentence, why a destroy only forgets.
	irreversible string
	// validators are the configuration validators.
	validators []resource.ConfigValidator
}

// changeNote ends the description of every argument of a flow.
func (f *flow[A, O, R]) changeNote() string {
	return fmt.Sprintf(" **Changing it makes a NEW %s**: Terraform plans a replacement, which moves the money again; "+
		"the %s already made is not reversed.", f.kind.words.noun, f.kind.words.noun)
}

// schema is the resource's schema: each argument forces a replacement.
func (f *flow[A, O, R]) schema() schema.Schema {
	attrs := map[string]schema.Attribute{}
	for _, a := range f.args {
		mods := []planmodifier.String{stringplanmodifier.RequiresReplace()}
		desc := a.description + f.changeNote()
		switch {
		case a.recordsAnswer:
			mods = []planmodifier.String{replaceWhenConfigured}
		case a.mayBeUnreported:
			mods = []planmodifier.String{replaceUnlessRecordedAfterImport()}
			desc += " When the service does not report it, setting it on an imported " + f.kind.words.noun +
				" only records it."
		}
		attrs[a.name] = schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            a.required,
			Optional:            !a.required,
			Computed:            a.recordsAnswer,
			Validators:          a.validators,
			PlanModifiers:       mods,
		}
	}
	attrs["metadata"] = schema.MapAttribute{
		MarkdownDescription: metadataDescription("the "+f.kind.words.noun) + f.changeNote(),
		ElementType:         types.StringType,
		Optional:            true,
		Validators:          metadataValidators(),
		PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
	}
	f.computed.computedInto(attrs, allButStatus)
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the " + f.kind.words.noun + ".",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs[moneyAttribute] = moneySchema()
	return schema.Schema{MarkdownDescription: f.description, Attributes: attrs}
}

// request is the create request of a with refID.
func (f *flow[A, O, R]) request(ctx context.Context, a A, refID string) (R, error) {
	var r R
	for _, arg := range f.args {
		*arg.req(&r) = knownString(*arg.arg(&a))
	}
	*f.refIDArg().req(&r) = refID
	m := *f.metadata(&a)
	if !m.IsNull() && !m.IsUnknown() {
		md := map[string]string{}
		if d := m.ElementsAs(ctx, &md, false); d.HasError() {
			return r, errors.New("metadata is not a map of strings")
		}
		*f.reqMetadata(&r) = md
	}
	return r, nil
}

// differences lists how obj differs from the request body: every field
// the request sets must come back equal (decimals by value), an optional
// argument it leaves unset must come back absent (unless the argument
// records the service's answer), the object must be of this flow and keep
// its invariants, and its id must be usable.
func (f *flow[A, O, R]) differences(body R, obj *O) []string {
	var out []string
	for _, arg := range f.args {
		requested := *arg.req(&body)
		if arg.got != nil && requested == "" && !arg.recordsAnswer {
			if got := arg.got(obj); got != nil && *got != "" {
				out = append(out, fmt.Sprintf("%s: requested none, answered %q", arg.name, shown(*got)))
			}
			continue
		}
		if arg.got == nil || requested == "" || (arg.mayBeUnreported && arg.got(obj) == nil) {
			continue
		}
		equal := exactly
		if arg.decimal {
			equal = decimalEqual
		}
		out = differ(out, arg.name, requested, arg.got(obj), equal)
	}
	if m := metadataDifference(*f.reqMetadata(&body), f.gotMetadata(obj)); m != "" {
		out = append(out, m)
	}
	out = append(out, f.ofKind(obj)...)
	if f.invariants != nil {
		out = append(out, f.invariants(body, obj)...)
	}
	if why := unusableID(f.kind.id(obj)); why != "" {
		out = append(out, "id: answered "+why)
	}
	return out
}

// fromObject sets m from obj: an argument keeps a known value (what was
// configured) and otherwise takes the answered one; the computed
// attributes follow obj, but the manifest stays as the plan that made the
// object saw it.
func (f *flow[A, O, R]) fromObject(m *shapedState[A], obj *O, diags *diag.Diagnostics) {
	for _, arg := range f.args {
		if arg.got != nil {
			*arg.arg(&m.args) = keepOr(*arg.arg(&m.args), stringValue(arg.got(obj)))
		} else if v := arg.arg(&m.args); v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	if md := f.metadata(&m.args); md.IsNull() || md.IsUnknown() {
		*md = stringMapValue(f.gotMetadata(obj))
	}
	followAnswer(m, f.computed.attrValues(obj, diags))
	if f.failed != nil && f.failed(obj) {
		status := shown(f.kind.status(obj))
		diags.AddWarning(f.kind.words.title+" "+status,
			fmt.Sprintf("The service reports the %s %s as %s: the money did not move. It stays in the state as "+
				"recorded and is never made again on its own; to make it again on purpose, give it a new ref_id "+
				"(or change an argument), which plans a new one.", f.kind.words.noun, f.kind.shownID(obj), status))
	}
}

// warnUnverified warns of what of obj the provider could not check.
func (f *flow[A, O, R]) warnUnverified(obj *O, diags *diag.Diagnostics) {
	if f.unverified == nil {
		return
	}
	if u := f.unverified(obj); len(u) > 0 {
		diags.AddWarning(f.kind.words.title+" recorded with parts not checked",
			fmt.Sprintf("The service's answer for the %s %s was compared with the request, but these parts of it "+
				"could not be checked, and are recorded as the service answered them:\n%s", f.kind.words.noun,
				f.kind.shownID(obj), bulletList(u)))
	}
}

// declare is the money-core declaration of f.
func (f *flow[A, O, R]) declare() moneyType[A, *O, R] {
	w := f.kind.words
	refIDArg := f.refIDArg()
	var firstRequired flowArg[A, R, *O]
	for _, a := range f.args {
		if a.required && firstRequired.arg == nil {
			firstRequired = a
		}
	}
	refOf := func(m shapedState[A]) string { return refIDArg.arg(&m.args).ValueString() }
	return moneyType[A, *O, R]{
		kind:       f.kind,
		schema:     f.schema,
		identity:   w.noun,
		validators: f.validators,
		refID:      refIDArg.arg,
		unread:     func(a A) bool { return firstRequired.arg(&a).IsNull() },
		request:    f.request,
		summary:    f.summary,
		post:       f.post,
		existing:   f.existing,
		moves:      f.moves,
		differences: func(body R, obj *O) []string {
			return f.differences(body, obj)
		},
		get:       f.get,
		readScope: f.readScope,
		recorded: func(ctx context.Context, m shapedState[A], obj *O) []string {
			body, _ := f.request(ctx, m.args, refOf(m))
			return f.differences(body, obj)
		},
		importable: func(id string, obj *O) []string {
			d := recordedDifferences(types.StringValue(id), f.kind.id(obj), nil)
			return append(d, f.ofKind(obj)...)
		},
		created: func(_ context.Context, m *shapedState[A], obj *O, outcome createOutcome, diags *diag.Diagnostics) {
			f.fromObject(m, obj, diags)
			f.warnUnverified(obj, diags)
			m.computed[moneyAttribute] = withSends(m.computed[moneyAttribute], outcome == outcomeConfirmed)
		},
		refreshed: func(_ context.Context, m *shapedState[A], obj *O, diags *diag.Diagnostics) {
			f.fromObject(m, obj, diags)
		},
		adopt: func(_ context.Context, m *shapedState[A], obj *O, diags *diag.Diagnostics) {
			f.fromObject(m, obj, diags)
			f.warnUnverified(obj, diags)
		},
		// A money movement keeps its state whatever a refresh finds:
		// forgetting it would plan to move the money again.
		refresh: refreshPolicy{scopeRefused: keepWithWarning, gone: keepWithWarning, another: failKeepingState},
		say: lifecycleWords[A]{
			destroy: &message{fmt.Sprintf("Destroying a %s does not reverse it", w.noun),
				fmt.Sprintf("Destroy only removes the %s from the Terraform state: %s No API call is made.",
					w.noun, f.irreversible)},
			notRefreshed: fmt.Sprintf("The %s keep the status recorded when they were made; nothing else is "+
				"affected, and nothing is sent.", w.plural),
			gone: func(m shapedState[A]) message {
				return message{w.title + " not found at the service",
					fmt.Sprintf("The service does not know the %s %s (ref_id %s) any more. The state is kept as "+
						"recorded, and nothing is sent.", w.noun, id(m).ValueString(), refOf(m))}
			},
			forgotten: func(m shapedState[A]) message {
				return message{w.title + " removed from state only",
					fmt.Sprintf("The %s %s (ref_id %s) was removed from the Terraform state. No API call was made: "+
						"%s", w.noun, id(m).ValueString(), refOf(m), f.irreversible)}
			},
		},
		planChange: func(ctx context.Context, _ *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[A]) {
			if len(resp.RequiresReplace) == 0 {
				// An argument the service did not report, recorded in
				// place on an imported object: nothing moves.
				return
			}
			next := "Its new arguments are known only at apply."
			if config, d := getShaped[A](ctx, req.Config); !d.HasError() && req.Config.Raw.IsFullyKnown() {
				next = "Applying makes a NEW " + w.noun + ": " + f.summary(config.args) + "."
			}
			resp.Diagnostics.AddWarning(fmt.Sprintf("Changing a %s makes a NEW %s", w.noun, w.noun),
				fmt.Sprintf("%s\n\nThe service cannot change a %s, so Terraform plans a replacement. The %s already "+
					"made, %s (%s, ref_id %s), is not reversed: the replacement only removes it from the state. If "+
					"that is not what you want, restore the previous arguments.", next, w.noun, w.noun,
					shown(id(state).ValueString()), f.summary(state.args), shownRef(refOf(state))))
		},
	}
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
	panic("money flow " + f.kind.words.resourceType + " declares no ref_id argument")
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
