package provider

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The lifecycle of a resource on the money core. A resource that creates
// its objects with a key, a ref_id or a natural key (lost_create.go), is
// a declaration (moneyType): its words, its arguments and its API object,
// how to send, look up and read one, and its refresh policy. The core (moneyCoreResource) owns the rest: the plan of a
// new, unchanged, changed or destroyed object, the create and its outcome,
// the refresh, the import, the identity, the destroy, and the decision the
// server's fast plan path asks for. A resource declares; it never drives
// the core by hand.
//
// # The refresh policy
//
// A refresh reads the object by id (gathered with the other reads of its
// resource into lists of ids, and not at all once its status is final,
// when its objects have lists: see money_gathering.go). Three events are out of the ordinary,
// and each resource says in its refreshPolicy what each means for it; the
// core carries out each outcome the same way for every resource:
//
//	event                      outcome                what the user sees
//	the read scope is refused  keepWithWarning        one warning per type per run; the state is kept
//	the object is gone (404)   keepWithWarning        a warning naming it; the state is kept
//	                           forgetWithWarning      a warning naming it; it leaves the state, and
//	                                                  Terraform plans to create it again
//	another object answers     failKeepingState       an error naming the differences; the state is kept
//
// A money movement (a withdrawal) keeps its state when its transfer is
// gone: forgetting it would plan to send it again. An object that moves no
// money (an address, instructions, a bank account) is forgotten, so that
// the next apply makes it again. Whatever the event, an import that cannot
// read its object is an error and records nothing (cannotImport).

// refreshOutcome is what a refresh does on one event of refreshPolicy.
type refreshOutcome int

const (
	// keepWithWarning keeps the state as recorded, with a warning.
	keepWithWarning refreshOutcome = iota + 1
	// forgetWithWarning removes the object from the state, with a
	// warning: Terraform plans to create it again.
	forgetWithWarning
	// failKeepingState is an error; the state is kept as recorded.
	failKeepingState
)

func (o refreshOutcome) String() string {
	switch o {
	case keepWithWarning:
		return "warning, state kept"
	case forgetWithWarning:
		return "warning, removed from state"
	case failKeepingState:
		return "error, state kept"
	}
	return "undeclared"
}

// refreshPolicy is what the refresh of a resource does on each event.
type refreshPolicy struct {
	// scopeRefused: the credentials may not read the object (403, or the
	// token endpoint's invalid_scope).
	scopeRefused refreshOutcome
	// gone: the service does not know the object any more.
	gone refreshOutcome
	// another: the service answers with another object than the one the
	// state records (another id, ref_id or argument).
	another refreshOutcome
}

// errAnotherObject is the error of a read by id that answered another
// object, whose id it names.
type errAnotherObject struct{ answered string }

func (e errAnotherObject) Error() string { return "the service answered with the object " + e.answered }

// moneyType declares a resource on the money core: A is its arguments
// struct (its state is shapedState[A]), T its API object, R its create
// request. Besides how its objects are read, its key, its schema and its
// words, its settings come in one group per phase: the plan of a new
// object, its create, the reads of a made one, and the change and destroy
// of one.
type moneyType[A, T, R any] struct {
	// objects is how the core reads its objects (words, id, creation time,
	// description, get by id, lookup by ref_id).
	objects moneyObjects[T]
	// key, when set, is the type's natural key (a profile's nickname): what
	// names its object at the service in place of a ref_id, which its
	// create does not send (lost_create.go). nil: the ref_id (plan.refID),
	// configured or derived.
	key *naturalKey[A, T, R]
	// schema is the resource's schema; identity names its object in the
	// identity schema.
	schema   func() schema.Schema
	identity string
	// refresh is the refresh policy.
	refresh refreshPolicy
	// say holds the resource's own words for the lifecycle's messages.
	say    lifecycleWords[A]
	plan   typePlan[A]
	create typeCreate[A, T, R]
	read   typeRead[A, T]
	change typeChange[A]
}

// typePlan is what the plan of a new object of a moneyType reads of its
// arguments.
type typePlan[A any] struct {
	// refID is the ref_id argument of a (nil for a type with a natural
	// key).
	refID func(a *A) *types.String
	// unread reports a state whose arguments were never read from the
	// service: an object being imported.
	unread func(a A) bool
	// summary describes the object of a in a few words, for messages.
	summary func(a A) string
	// validators are its configuration validators, if any.
	validators []resource.ConfigValidator
	// moves, when set, says what the object of a moves: the core then sets
	// its manifest (money) at plan and passes it through the provider's
	// withdrawal_guard at plan and at send (see money_movement.go).
	moves func(a A) movement
}

// typeCreate is how an object of a moneyType is created.
type typeCreate[A, T, R any] struct {
	// request is the create request of a with refID; its error is on the
	// argument requestArgument ("metadata" when empty).
	request         func(ctx context.Context, a A, refID string) (R, error)
	requestArgument string
	// derive is the ref_id derived from a, after the superseded object
	// of id after ("" for the first); nil: derivedRefID of the request
	// without ref_id.
	derive func(ctx context.Context, a A, after string) (string, bool)
	// secrets are the sensitive values of a, which the client scrubs from
	// its logs and errors.
	secrets func(a A) []*string
	// post sends the create request; existing reads the object a 409
	// reports as made earlier; differences lists how an answered object
	// differs from the request; lookupFirst looks the ref_id up before
	// sending (see createRun).
	post        func(ctx context.Context, c *client.Client, body R) (T, error)
	existing    func(err error) (T, bool)
	differences func(body R, obj T) []string
	lookupFirst bool
	// send, when set, is what the declaration does around the post of
	// the create request body (a guaranteed fee quoted first, the body
	// posted with it): post sends a body through the core (see sendMoney).
	send func(ctx context.Context, run *moneyRun, a A, body R, post corePost[R, T]) (createResult[T], diag.Diagnostics)
	// found, when set, checks an object of a recorded without sending
	// (money.sends = false) as send checks one it adopts (a withdrawal's
	// charged fee against max_fee); an error still records it.
	found func(a A, res createResult[T], diags *diag.Diagnostics)
	// created sets m from the object its create confirmed or adopted.
	created func(ctx context.Context, m *shapedState[A], obj T, outcome createOutcome, diags *diag.Diagnostics)
}

// typeRead is how a made object of a moneyType is read back: by a
// refresh, or by an import.
type typeRead[A, T any] struct {
	// recorded lists how a read object differs from what the state m
	// records, besides its id.
	recorded func(ctx context.Context, m shapedState[A], obj T) []string
	// importable lists why obj, read for the import of id, is not an
	// object of this resource.
	importable func(id string, obj T) []string
	// refreshed sets m from the object a refresh read; adopt from the
	// object an import read.
	refreshed func(ctx context.Context, m *shapedState[A], obj T, diags *diag.Diagnostics)
	adopt     func(ctx context.Context, m *shapedState[A], obj T, diags *diag.Diagnostics)
}

// typeChange are the hooks of a made object of a moneyType, each optional.
type typeChange[A any] struct {
	// stale reports an unchanged object the resource has something to
	// say about (instructions the service deprecated): its plan goes to
	// planChange. It reads the state alone.
	stale func(ctx context.Context, state tfsdk.State) bool
	// planChange plans an object whose configuration changed, or a stale
	// one.
	planChange func(ctx context.Context, run *moneyRun, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[A])
	// update applies an in-place change and returns the state to record;
	// nil records the plan.
	update func(ctx context.Context, run *moneyRun, plan, state shapedState[A], diags *diag.Diagnostics) (shapedState[A], bool)
	// remove destroys a confirmed object at the service; nil forgets it
	// (say.forgotten).
	remove func(ctx context.Context, run *moneyRun, state shapedState[A], diags *diag.Diagnostics)
	// planDestroy plans the destroy of the object in state, in place of
	// the warning say.destroy: what the service would refuse, said at
	// plan (a profile holding funds).
	planDestroy func(ctx context.Context, run *moneyRun, state shapedState[A], diags *diag.Diagnostics)
	// refIDKept says that the service keeps the ref_id of an object it
	// deleted: a new object whose arguments derive the ref_id of one this
	// run replaces or deletes (putting back what changed at the service)
	// takes the successor derived after it, shown in the plan.
	refIDKept bool
}

// lifecycleWords are a resource's own words in the lifecycle's messages.
type lifecycleWords[A any] struct {
	// destroy is the warning of a planned destroy (nil: none).
	destroy *message
	// unconfirmed ends the warning of a refresh of an unconfirmed create.
	unconfirmed string
	// forgotten is the warning of the destroy of an object the service
	// keeps.
	forgotten func(m shapedState[A]) message
	// notRefreshed says what a refresh that cannot read keeps.
	notRefreshed string
	// gone is the warning of a refresh that finds the object gone.
	gone func(m shapedState[A]) message
	// readFailed, when set, is the error of a refresh whose read failed
	// (its scope refused among them, when the policy makes that an
	// error), in place of the core's.
	readFailed func(m shapedState[A], err error) message
}

// moneyCoreResource is a resource on the money core: the lifecycle of the
// declaration t.
type moneyCoreResource[A, T, R any] struct {
	t   *moneyType[A, T, R]
	run *moneyRun
}

// The resource the core makes of any declaration is a full resource.
var (
	_ resource.ResourceWithConfigure        = (*moneyCoreResource[any, any, any])(nil)
	_ resource.ResourceWithModifyPlan       = (*moneyCoreResource[any, any, any])(nil)
	_ resource.ResourceWithImportState      = (*moneyCoreResource[any, any, any])(nil)
	_ resource.ResourceWithIdentity         = (*moneyCoreResource[any, any, any])(nil)
	_ resource.ResourceWithConfigValidators = (*moneyCoreResource[any, any, any])(nil)
)

// newMoneyResource is the resource of the declaration t.
func newMoneyResource[A, T, R any](t *moneyType[A, T, R]) resource.Resource {
	return &moneyCoreResource[A, T, R]{t: t}
}

// MoneyCoreRefNamespace names the namespace of the resource's ref_ids: the
// registry knows the resources on the money core by it.
func (r *moneyCoreResource[A, T, R]) MoneyCoreRefNamespace() string {
	return r.t.objects.words.refNamespace
}

// MovesMoney is the money.kind of what the resource's objects move, ""
// for a type that moves none: the registry, and the test that the shipped
// policy knows every type, know the money types by it.
func (r *moneyCoreResource[A, T, R]) MovesMoney() string {
	if r.t.plan.moves == nil {
		return ""
	}
	var a A
	return r.t.plan.moves(a).kind
}

func (r *moneyCoreResource[A, T, R]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.t.objects.words.resourceType, "platform")
}

func (r *moneyCoreResource[A, T, R]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.t.schema()
}

func (r *moneyCoreResource[A, T, R]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema(r.t.identity)
}

func (r *moneyCoreResource[A, T, R]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.run = configuredRun(req.ProviderData, &resp.Diagnostics)
}

func (r *moneyCoreResource[A, T, R]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return r.t.plan.validators
}

func (r *moneyCoreResource[A, T, R]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}

// derived is the ref_id derived from a after the superseded or replaced
// object after ("" for the first).
func (t *moneyType[A, T, R]) derived(ctx context.Context, a A, after string) (string, bool) {
	if t.create.derive != nil {
		return t.create.derive(ctx, a, after)
	}
	body, err := t.create.request(ctx, a, "")
	if err != nil {
		return "", false
	}
	if after == "" {
		return derivedRefID(t.objects.words.refNamespace, body)
	}
	return derivedRefID(t.objects.words.refNamespace, struct {
		Request R      `json:"request"`
		After   string `json:"after"`
	}{body, after})
}

// invalidRequest is the error of a create request that cannot be made of
// the arguments (err), on the argument at fault.
func (t *moneyType[A, T, R]) invalidRequest(err error, diags *diag.Diagnostics) {
	name := t.create.requestArgument
	if name == "" {
		name = "metadata"
	}
	diags.AddAttributeError(path.Root(name), "Invalid "+name, err.Error())
}

// scrub has the client scrub the sensitive values of a.
func (r *moneyCoreResource[A, T, R]) scrub(a A) {
	if r.t.create.secrets == nil || r.run == nil || r.run.client == nil {
		return
	}
	for _, p := range r.t.create.secrets(a) {
		if p != nil {
			r.run.client.AddSensitive(*p)
		}
	}
}

func (r *moneyCoreResource[A, T, R]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch {
	case req.Plan.Raw.IsNull():
		if req.State.Raw.IsNull() {
			return
		}
		if plan := r.t.change.planDestroy; plan != nil {
			if r.run == nil {
				return
			}
			if state, ok := readShaped[A](ctx, req.State, &resp.Diagnostics); ok {
				plan(ctx, r.run, state, &resp.Diagnostics)
			}
		} else if w := r.t.say.destroy; w != nil {
			resp.Diagnostics.AddWarning(w.summary, w.detail)
		}
	case req.State.Raw.IsNull():
		// A new object: created, replacing another one (Terraform plans
		// the new object of a replacement again with a null prior
		// state), or retrying a create whose outcome is unknown (a
		// tainted object is planned with a null prior state too).
		r.planNew(ctx, req, resp)
	case req.Plan.Raw.Equal(req.State.Raw):
		keep, diags := r.decideUnchanged(ctx, r.run, req.State)
		resp.Diagnostics.Append(diags...)
		if !keep && !diags.HasError() {
			r.planChange(ctx, req, resp, false)
		}
	default:
		r.planChange(ctx, req, resp, true)
	}
}

// decideUnchanged is the plan of an object the configuration leaves as
// it is, for ModifyPlan and for the server's fast plan path alike: keep
// is true when it stays as it is with nothing to say, its ref_id claimed
// against the new objects of the plan (see claimPlannedRefID); false when
// the resource has something to say about it (stale), or when the claim
// fails (diags then hold the error, and nothing is claimed).
func (r *moneyCoreResource[A, T, R]) decideUnchanged(ctx context.Context, run *moneyRun, state tfsdk.State) (keep bool, diags diag.Diagnostics) {
	if r.t.change.stale != nil && r.t.change.stale(ctx, state) {
		return false, nil
	}
	if r.t.key != nil {
		// A natural key is not claimed: the service refuses a second
		// object under it.
		return true, nil
	}
	// The id and the ref_id alone: most objects of a plan are unchanged,
	// and reading the whole state of each costs more than planning it.
	var objID, refID types.String
	diags.Append(state.GetAttribute(ctx, path.Root("id"), &objID)...)
	diags.Append(state.GetAttribute(ctx, path.Root("ref_id"), &refID)...)
	if diags.HasError() {
		return false, diags
	}
	w := r.t.objects.words
	claimPlannedRefID(run, w, refID.ValueString(), w.noun+" "+objID.ValueString(), false, &diags)
	return !diags.HasError(), diags
}

// planUnchanged is decideUnchanged for the server's fast plan path: true
// when the plan is no change with nothing to say.
func (r *moneyCoreResource[A, T, R]) planUnchanged(ctx context.Context, run *moneyRun, state tfsdk.State) bool {
	keep, diags := r.decideUnchanged(ctx, run, state)
	return keep && len(diags) == 0
}

// planChange plans an object in state whose configuration changed
// (changed), or that the resource has something to say about.
func (r *moneyCoreResource[A, T, R]) planChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, changed bool) {
	state, ok := readShaped[A](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if changed && refuseUnreadReplacement(r.t.objects.words, id(state), r.t.plan.unread(state.args), &resp.Diagnostics) {
		return
	}
	if changed && r.t.change.refIDKept && r.run != nil && !id(state).IsNull() {
		// Its replacement (planned next, without the state) derives its
		// ref_id from the configuration: when that is this object's (or
		// the plain one its own succeeded), the replacement takes the
		// successor, as the destroy says at apply (Delete).
		if config, d := getShaped[A](ctx, req.Config); !d.HasError() && r.t.plan.refID(&config.args).IsNull() {
			refID, ok := r.t.derived(ctx, config.args, "")
			origin, _ := recordedOrigin(ctx, req.Private)
			if ok && (refID == r.t.plan.refID(&state.args).ValueString() || refID == origin.Plain) {
				r.run.attempts.replacing(r.t.objects.words.refNamespace, refID, id(state).ValueString())
			}
		}
	}
	if k := r.t.key; changed && k != nil && k.replaces != nil && r.run != nil && !id(state).IsNull() {
		if plan, d := getShaped[A](ctx, req.Plan); !d.HasError() && k.replaces(plan.args, state.args) {
			keyReplacing(r.run, r.t.objects.words.refNamespace, k.of(plan.args), id(state).ValueString())
		}
	}
	if r.t.change.planChange != nil {
		r.t.change.planChange(ctx, r.run, req, resp, state)
	}
}

// planNew plans a new object through the core (planNewObject): its
// ref_id, derived from its arguments when the configuration sets none
// (and shown in the plan, unless the resource may move past a superseded
// object at apply), and what the apply will do with an object the service
// already holds under it.
func (r *moneyCoreResource[A, T, R]) planNew(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	t := r.t
	if t.key != nil {
		r.planNewByKey(ctx, req, resp)
		return
	}
	config, ok := readShaped[A](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	a := config.args
	if !req.Config.Raw.IsFullyKnown() {
		// An argument is known only at apply: so is the ref_id, which the
		// final plan derives then.
		if t.plan.moves != nil {
			t.planUnknownMovement(ctx, r.run, a, resp)
		}
		return
	}
	r.scrub(a)
	refID, sends, found := planNewObject(ctx, r.run, newObjectPlan[T]{
		objects:    t.objects,
		configured: *t.plan.refID(&a),
		derive:     func() (string, bool) { return t.derived(ctx, a, "") },
		successor: func(after string) (string, bool) {
			if !t.change.refIDKept {
				return "", false
			}
			return t.derived(ctx, a, after)
		},
		what: t.plan.summary(a),
		show: t.objects.superseded == nil,
		differences: func(refID string, obj T) []string {
			body, _ := t.create.request(ctx, a, refID)
			return t.create.differences(body, obj)
		},
	}, resp)
	if resp.Diagnostics.HasError() || t.plan.moves == nil {
		return
	}
	if found != "" && !sends.IsUnknown() && !sends.ValueBool() {
		// The apply records this object and no other: the plan shows
		// which, and the apply holds what it finds to it.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), found)...)
	}
	t.planMovement(ctx, r.run, a, refID, sends, resp)
}

func (r *moneyCoreResource[A, T, R]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	t := r.t
	w := t.objects.words
	if r.run == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	if t.key != nil {
		r.createByKey(ctx, req, resp)
		return
	}
	plan, _ := readShaped[A](ctx, req.Plan, &resp.Diagnostics)
	config, ok := readShaped[A](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	a := plan.args
	r.scrub(a)
	refID, derived, ok := createKey(ctx, w, *t.plan.refID(&plan.args), *t.plan.refID(&config.args),
		func() (string, bool) { return t.derived(ctx, a, "") }, resp.Private, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	if t.plan.moves != nil && recordsOnly(plan.computed[moneyAttribute]) {
		// The plan found the ref_id at the service and said that applying
		// records that object and sends nothing (money.sends = false):
		// no create is sent, whatever the service holds now.
		res, diags := r.recordFound(ctx, a, refID, derived, knownString(id(plan)))
		resp.Diagnostics.Append(diags...)
		r.record(ctx, plan, refID, res, resp)
		return
	}
	for range maxSuccessorRefIDs {
		res, diags := r.sendOnce(ctx, a, refID, derived)
		if res.superseded {
			// The object made earlier with this derived ref_id is
			// superseded: a new one takes the successor ref_id.
			after := t.objects.id(res.obj)
			tflog.Info(ctx, w.noun+" made with the derived ref_id is superseded; trying its successor",
				map[string]any{"ref_id": refID, "id": after})
			if refID, ok = t.derived(ctx, a, after); !ok {
				resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", "metadata is not a map of strings")
				return
			}
			continue
		}
		resp.Diagnostics.Append(diags...)
		r.record(ctx, plan, refID, res, resp)
		return
	}
	resp.Diagnostics.AddError(w.title+" not "+w.made,
		fmt.Sprintf("The %d ref_ids derived for this %s all belong to superseded objects. Set ref_id in the "+
			"configuration to make a new one.", maxSuccessorRefIDs, w.noun))
}

// maxSuccessorRefIDs bounds the successors a create tries after derived
// ref_ids whose objects are superseded.
const maxSuccessorRefIDs = 16

// sendOnce sends the create of a with refID and sorts the answer (see
// sendMoney).
func (r *moneyCoreResource[A, T, R]) sendOnce(ctx context.Context, a A, refID string, derived bool) (createResult[T], diag.Diagnostics) {
	w := r.t.objects.words
	tflog.Info(ctx, "creating "+w.noun, map[string]any{"ref_id": refID})
	return r.t.sendMoney(ctx, r.run, a, refID, derived, r.run.attempts.has(w.refNamespace, refID), w.resourceType)
}

// recordFound records the object the plan found under refID, whose id the
// plan shows as planned, sending nothing (see createRun.recordFound).
func (r *moneyCoreResource[A, T, R]) recordFound(ctx context.Context, a A, refID string, derived bool, planned string) (createResult[T], diag.Diagnostics) {
	t := r.t
	w := t.objects.words
	tflog.Info(ctx, "recording the "+w.noun+" the plan found; sending nothing", map[string]any{"ref_id": refID})
	body, err := t.create.request(ctx, a, refID)
	if err != nil {
		var diags diag.Diagnostics
		t.invalidRequest(err, &diags)
		return createResult[T]{}, diags
	}
	res, diags := createRun[T]{
		objects:     t.objects,
		refID:       refID,
		plannedID:   planned,
		derived:     derived,
		recorded:    r.run.attempts.has(w.refNamespace, refID),
		window:      r.run.recoveryWindow,
		now:         r.run.clock(),
		differences: func(obj T) []string { return t.create.differences(body, obj) },
		runState:    r.run,
	}.recordFound(ctx)
	if res.outcome == outcomeAdopted && t.create.found != nil {
		t.create.found(a, res, &diags)
	}
	return res, diags
}

// record writes the state of a create's outcome: the object confirmed or
// adopted, or, when the outcome is unknown, what was sent (its unknown
// values cleared), which Terraform keeps tainted for the retry.
func (r *moneyCoreResource[A, T, R]) record(ctx context.Context, plan shapedState[A], refID string, res createResult[T], resp *resource.CreateResponse) {
	t := r.t
	*t.plan.refID(&plan.args) = types.StringValue(refID)
	switch res.outcome {
	case outcomeUnconfirmed:
		var diags diag.Diagnostics
		clearUnknownArguments(ctx, &plan.args, &diags)
		plan.clearUnknownComputed(ctx, &diags)
		diags.Append(setShaped(ctx, &resp.State, resp.State.Schema, plan)...)
		recordUnconfirmedCreate(ctx, resp, t.objects.words, id(plan), refID, res.err, diags)
	case outcomeConfirmed, outcomeAdopted:
		t.create.created(ctx, &plan, res.obj, res.outcome, &resp.Diagnostics)
		r.sawStatus(res.obj)
		tflog.Info(ctx, t.objects.words.noun+" recorded", map[string]any{"ref_id": refID, "id": t.objects.shownID(res.obj)})
		resp.Diagnostics.Append(setShaped(ctx, &resp.State, resp.State.Schema, plan)...)
		setIdentity(ctx, resp.Identity, id(plan), &resp.Diagnostics)
	}
}

// clearUnknownArguments turns every unknown argument of a (a field
// holding an attr.Value) into null.
func clearUnknownArguments[A any](ctx context.Context, a *A, diags *diag.Diagnostics) {
	rv := reflect.ValueOf(a).Elem()
	for i := range rv.NumField() {
		f := rv.Field(i)
		if !f.CanInterface() {
			continue
		}
		if v, ok := f.Interface().(attr.Value); ok && v != nil && v.IsUnknown() {
			null := reflect.ValueOf(nullOf(ctx, v.Type(ctx), diags))
			if null.Type().AssignableTo(f.Type()) {
				f.Set(null)
			}
		}
	}
}

func (r *moneyCoreResource[A, T, R]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	t := r.t
	w := t.objects.words
	state, ok := readShaped[A](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	setIdentity(ctx, resp.Identity, id(state), &resp.Diagnostics)
	if id(state).IsNull() && t.key != nil {
		// A create whose outcome is unknown (Terraform holds it tainted).
		r.unconfirmedByKey(ctx, state, req.Private, true, &resp.Diagnostics)
		return
	}
	if id(state).IsNull() {
		// A create whose outcome is unknown (Terraform holds it tainted).
		refID := t.plan.refID(&state.args).ValueString()
		derived, _ := t.derived(ctx, state.args, "")
		if !recordUnconfirmed(ctx, r.run, req.Private, w, refID, derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning(w.title+" not confirmed",
			fmt.Sprintf("The last create of this %s (ref_id %s) ended without confirmation from the service; it "+
				"may or may not have been processed. Terraform plans to create it again. With unchanged arguments "+
				"the retry sends the same ref_id %s, which the service never processes twice%s; with changed "+
				"arguments it is a new %s with a new ref_id, unless ref_id is set in the configuration.",
				w.noun, refID, refID, t.say.unconfirmed, w.noun))
		return
	}
	if r.run == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	r.scrub(state.args)
	if r.refresh(ctx, &state, &resp.Diagnostics) == forgetWithWarning {
		resp.State.RemoveResource(ctx)
		return
	}
	// What the service answered (an import's numbers) is scrubbed too.
	r.scrub(state.args)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(setShaped(ctx, &resp.State, resp.State.Schema, state)...)
	}
}

// refresh reads the object of the state m into m. An object being
// imported (its arguments unread) must be read: any failure is an error,
// so that nothing half-adopted enters the state, and it must be an object
// of this resource; it then takes every argument from the answer.
// Otherwise the answer must be the object the state records, and the
// events of the refresh policy have their declared outcome, which refresh
// returns (0 for an ordinary read).
func (r *moneyCoreResource[A, T, R]) refresh(ctx context.Context, m *shapedState[A], diags *diag.Diagnostics) refreshOutcome {
	t := r.t
	w := t.objects.words
	objID := id(*m).ValueString()
	importing := t.plan.unread(m.args)
	if !importing && finalNotRead(t.objects, func(name string) string { return m.str(name).ValueString() }) {
		// Final: the state keeps what the last read recorded.
		return 0
	}
	get := t.objects.get
	if !importing {
		get = func(ctx context.Context, _ *client.Client, id string) (T, error) {
			return readGathered(ctx, r.run, t.objects, id)
		}
	}
	obj, err := get(ctx, r.run.client, objID)
	var another errAnotherObject
	switch {
	case err != nil && importing:
		cannotImport(w, objID, err, t.objects.readScope, diags)
		return 0
	case errors.As(err, &another):
		return r.event(ctx, t.refresh.another, "another", *m, diags, func() message {
			return anotherObjectMessage(w, objID, []string{fmt.Sprintf("id: recorded %q, answered %q", objID, shown(another.answered))})
		})
	case err != nil && scopeRefused(err):
		return r.event(ctx, t.refresh.scopeRefused, "scope", *m, diags, func() message {
			if t.say.readFailed != nil && t.refresh.scopeRefused == failKeepingState {
				return t.say.readFailed(*m, err)
			}
			return message{w.title + " not refreshed",
				fmt.Sprintf("Reading the %s needs the OAuth scope %s, which these client credentials cannot get "+
					"(%s). %s Have the scope granted (and, if the provider's scopes argument pins the token's "+
					"scopes, include it there) so that a refresh can follow them.", w.plural, t.objects.readScope, err,
					t.say.notRefreshed)}
		})
	case errors.Is(err, client.ErrNotFound):
		return r.event(ctx, t.refresh.gone, "gone", *m, diags, func() message { return t.say.gone(*m) })
	case client.IsNoSuchOperation(err) && t.refresh.gone == keepWithWarning:
		// A money movement, whose read only follows its status, at a
		// service without that read (the seed's has no read of
		// transfers): the movement is neither gone nor refused; what the
		// state holds is what the service answered when it was made. Any
		// other object's read is needed: the error below names the URL.
		return r.event(ctx, t.refresh.scopeRefused, "no read", *m, diags, func() message {
			return message{w.title + " not refreshed",
				fmt.Sprintf("The service has no operation to read the %s at this address (%s). %s If base_url is "+
					"right, this service does not offer that read, and the state keeps what it answered when each "+
					"was made.", w.plural, err, t.say.notRefreshed)}
		})
	case err != nil && t.say.readFailed != nil:
		text := t.say.readFailed(*m, err)
		diags.AddError(text.summary, text.detail)
		return 0
	case err != nil:
		diags.AddError(failure("Reading the "+w.noun+" failed", err),
			fmt.Sprintf("Reading the %s %s failed: %s.\n\nNothing was %s. Check the provider configuration and the "+
				"service's availability, then try again.", w.noun, objID, err, w.made))
		return 0
	}
	if importing {
		// importable names what the resource asks of an object; without
		// it, the object must have the id asked for.
		d := recordedDifferences(id(*m), t.objects.id(obj), nil)
		if t.read.importable != nil {
			d = t.read.importable(objID, obj)
		}
		if len(d) > 0 {
			notImportable(w, objID, d, diags)
			return 0
		}
		t.read.adopt(ctx, m, obj, diags)
		r.sawStatus(obj)
		return 0
	}
	d := recordedDifferences(id(*m), t.objects.id(obj), nil)
	d = append(d, t.read.recorded(ctx, *m, obj)...)
	if len(d) > 0 {
		return r.event(ctx, t.refresh.another, "another", *m, diags, func() message {
			return anotherObjectMessage(w, objID, d)
		})
	}
	t.read.refreshed(ctx, m, obj, diags)
	r.sawStatus(obj)
	return 0
}

// sawStatus records the status of obj as this process saw it (see
// checkApprovedFiatAccount).
func (r *moneyCoreResource[A, T, R]) sawStatus(obj T) {
	if k := r.t.objects; k.status != nil {
		r.run.sawStatus(k.words.refNamespace, k.id(obj), k.status(obj))
	}
}

// event carries out the outcome o of a refresh event with the message
// msg: a warning (once per type per run for a refused scope) or an error.
func (r *moneyCoreResource[A, T, R]) event(ctx context.Context, o refreshOutcome, event string, m shapedState[A], diags *diag.Diagnostics, msg func() message) refreshOutcome {
	w := r.t.objects.words
	tflog.Warn(ctx, w.noun+" not refreshed", map[string]any{"id": id(m).ValueString(), "event": event, "outcome": o.String()})
	switch o {
	case keepWithWarning, forgetWithWarning:
		add := func() {
			text := msg()
			diags.AddWarning(text.summary, text.detail)
		}
		if event == "scope" {
			r.run.warnOnce("read:"+w.refNamespace, add)
		} else {
			add()
		}
	default:
		text := msg()
		diags.AddError(text.summary, text.detail)
		return failKeepingState
	}
	return o
}

// Update applies an in-place change (the resource's update), or records
// the plan: every other change is a replacement.
func (r *moneyCoreResource[A, T, R]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, _ := readShaped[A](ctx, req.Plan, &resp.Diagnostics)
	state, ok := readShaped[A](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	next := plan
	if r.t.change.update != nil {
		if r.run == nil {
			notConfigured(&resp.Diagnostics)
			return
		}
		r.scrub(plan.args)
		var ok bool
		if next, ok = r.t.change.update(ctx, r.run, plan, state, &resp.Diagnostics); !ok {
			return
		}
	}
	resp.Diagnostics.Append(setShaped(ctx, &resp.State, resp.State.Schema, next)...)
	setIdentity(ctx, resp.Identity, id(next), &resp.Diagnostics)
}

func (r *moneyCoreResource[A, T, R]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	t := r.t
	w := t.objects.words
	state, ok := readShaped[A](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if id(state).IsNull() && t.key != nil {
		// A tainted, unconfirmed create, before its retry.
		r.unconfirmedByKey(ctx, state, req.Private, false, &resp.Diagnostics)
		return
	}
	var refID string
	if t.key == nil {
		refID = t.plan.refID(&state.args).ValueString()
	}
	if id(state).IsNull() {
		// A tainted, unconfirmed create, before its retry. One left by a
		// provider version that generated ref_ids stops the apply here
		// too (when the plan skipped the refresh), before its retry could
		// send a second key.
		derived, _ := t.derived(ctx, state.args, "")
		if !recordUnconfirmed(ctx, r.run, req.Private, w, refID, derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Unconfirmed "+w.noun+" removed from state",
			fmt.Sprintf("The %s with ref_id %s was never confirmed by the service; it was removed from the "+
				"Terraform state without any API call.", w.noun, refID))
		return
	}
	if t.change.remove == nil {
		text := t.say.forgotten(state)
		resp.Diagnostics.AddWarning(text.summary, text.detail)
		return
	}
	if r.run == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	t.change.remove(ctx, r.run, state, &resp.Diagnostics)
	if t.change.refIDKept && !resp.Diagnostics.HasError() {
		// A replacement created next in this run, deriving this ref_id
		// (or the plain one it succeeded), takes the successor.
		objID := id(state).ValueString()
		r.run.attempts.replacing(w.refNamespace, refID, objID)
		if o, ok := recordedOrigin(ctx, req.Private); ok && o.Plain != "" {
			r.run.attempts.replacing(w.refNamespace, o.Plain, objID)
		}
	}
}

// declared is what the tests read of the declaration: its words, the
// scope of its reads and its refresh policy.
func (r *moneyCoreResource[A, T, R]) declared() (createWords, string, refreshPolicy) {
	return r.t.objects.words, r.t.objects.readScope, r.t.refresh
}

// derivedFrom is the ref_id the declaration derives from the arguments of
// src, after the superseded object after.
func (r *moneyCoreResource[A, T, R]) derivedFrom(ctx context.Context, src getter, after string) (string, bool) {
	m, diags := getShaped[A](ctx, src)
	if diags.HasError() {
		return "", false
	}
	return r.t.derived(ctx, m.args, after)
}

// naturallyKeyed reports whether the declaration's key is natural
// (moneyType.key) rather than a ref_id (tests).
func (r *moneyCoreResource[A, T, R]) naturallyKeyed() bool { return r.t.key != nil }

// looksUpFirst reports whether each create looks the ref_id up before it
// sends (see createRun.lookupFirst).
func (r *moneyCoreResource[A, T, R]) looksUpFirst() bool { return r.t.create.lookupFirst }

// looksUpAtPlan reports whether a plan can look the ref_id of a new object
// up (tests): not when the service publishes no lookup of its objects.
func (r *moneyCoreResource[A, T, R]) looksUpAtPlan() bool { return r.t.objects.lookup != nil }
