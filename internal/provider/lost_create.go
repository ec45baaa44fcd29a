package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The core's natural key: a type whose object the service names by what it
// holds (a profile by its nickname, an entry of the address book by its
// tuple) rather than by a ref_id. Its create sends no ref_id, so the
// service cannot say which request made an object: the core looks the key
// up before it sends anything, and never takes over an object found under
// it. When a create's answer is lost, an object found under the key is the
// attempt's own only with evidence: it holds what the attempt sent, the
// service made it after the attempt started, and nothing else could be it.
// Anything else is refused, naming the object and the import that adopts
// it on purpose.
//
// The attempt is recorded in the object's private state before the
// request is sent (lostCreate.record), so that the unconfirmed state the
// create leaves carries it; the refresh of that state (at plan) and its
// destroy before the retry (at apply) hand it to the run (attemptSet),
// where the plan and the create of the retry judge what they find
// (lostCreate.missing).

// naturalKey is the key of a type whose objects are named by what they
// hold (moneyType.key): A its arguments, T its API object, R its create
// request.
type naturalKey[A, T, R any] struct {
	// of is the key of the object of a, as the service compares it; ""
	// when a names none.
	of func(a A) string
	// attr is the argument the errors about the key are on.
	attr path.Path
	// lookup finds the object the key of a names. It runs with a context
	// that records the answer's Date.
	lookup func(ctx context.Context, c *client.Client, a A) (keyFound[T], error)
	// refuses, when set, refuses at plan and again at send (atSend) what
	// the service must never be sent, on the argument at fault: an
	// address whose checksum is bad. Nothing is looked up or sent then.
	refuses func(a A, atSend bool, diags *diag.Diagnostics) bool
	// sent is what the create body sends, by the API's names: what an
	// object found after its answer was lost must hold.
	sent func(body R) map[string]string
	// judge is what obj, found under the key of the lost attempt (recorded
	// is false when the state holds no record of its start), shows of the
	// evidence; err is a read that failed.
	judge func(ctx context.Context, c *client.Client, attempt lostCreate, recorded bool, obj T) (foundObject, error)
	// refound: a create whose answer was lost looks the key up again at
	// once, and records what it finds with the evidence.
	refound bool
	// replaces, when set, reports a change of the arguments of the object
	// in state (a new description of a profile) that replaces it: the
	// plan of the create of its replacement, made without the state, then
	// does not take it for another object holding the key.
	replaces func(plan, state A) bool
	// conflict, when set, is the error of a create the service refused as
	// a conflict (the key taken); otherwise it is say.refused.
	conflict func(a A, err error, diags *diag.Diagnostics)
	// existed, for a create that updates in place an object its key
	// already names (the PUT of the address book, an upsert), says why
	// obj, answered to it, evidently existed before it, by what the lookup
	// before it found (l) and the service's time of that answer; "" when
	// nothing says so. Such an answer is refused with say.upserted, never
	// recorded as the create's.
	existed func(l keyFound[T], servedAt time.Time, obj T) string
	// say are the type's words of the natural key's messages.
	say keyWords[A, T]
}

// keyWords are a natural key's words: each is the message of one event of
// the plan or the create of a new object.
type keyWords[A, T any] struct {
	// notLookedUp is the warning (once per run) of a plan that could not
	// look the key up; lookupFailed the error of a create that could not,
	// which sends nothing.
	notLookedUp, lookupFailed func(a A, err error) message
	// taken is the error of an object found under the key that this state
	// did not make; sent says what was sent.
	taken func(a A, obj T, sent string) message
	// notJudgedAtPlan is the warning of a plan that could not read the
	// evidence of obj; notJudged the error of a create that could not (why
	// says how obj was found).
	notJudgedAtPlan func(a A, obj T, err error) message
	notJudged       func(a A, obj T, why string, err error, sent string) message
	// notItsOwn is the error of an object found under the key of a lost
	// attempt that the evidence does not show the attempt made.
	notItsOwn func(a A, obj T, found foundObject, missing []string, sent string) message
	// foundAtPlan is the warning of a plan that found the lost attempt's
	// object: applying records it.
	foundAtPlan func(a A, obj T, found foundObject) message
	// recorded is why an object found under the key by a create is the
	// attempt's this state recorded; lost why one found after this
	// create's answer was lost (err) is.
	recorded string
	lost     func(err error) string
	// adopted is the warning of a create that records the attempt's
	// object (why, found: how it was made); differs the error of one that
	// differs from the configuration (d).
	adopted func(a A, obj T, why string, found foundObject) message
	differs func(a A, obj T, why string, found foundObject, d []string) message
	// refused is the error of a create the service refused;
	// answeredDifferently of an answer that differs from the request (d).
	refused             func(a A, err error) message
	answeredDifferently func(a A, obj T, d []string) message
	// unconfirmed is the detail of a create whose outcome is unknown;
	// notConfirmed the warning of the refresh of its state.
	unconfirmed  func(a A, err error) string
	notConfirmed func(a A) message
	// upserted is the error of the answer of an upsert that existed
	// before it (why).
	upserted func(a A, obj T, why string) message
}

// keyFound is what a lookup of a natural key found: the object the key
// names (found is false when the service holds none), and the ids of
// every object the lookup read.
type keyFound[T any] struct {
	obj   T
	found bool
	seen  []string
}

// keyReplaced is the namespace, in the run's attempt set, of the objects
// of namespace that a plan replaces, by their key and id (keyReplacing).
func keyReplaced(namespace string) string { return namespace + " replaced" }

// keyReplacing records that this plan replaces the object id, whose key is
// key: the plan of the create of its replacement, made without the state,
// does not take it for another object holding the key.
func keyReplacing(run *moneyRun, namespace, key, id string) {
	run.attempts.add(keyReplaced(namespace), key+"\x00"+id)
}

// planNewByKey plans a new object of a natural key: it looks the key up,
// so that the plan of an object another holds fails before it is applied,
// as its apply would; an object this state recorded a lost attempt to make
// is judged by the evidence. A key the plan cannot look up is left to the
// apply, which looks it up again before it sends anything.
func (r *moneyCoreResource[A, T, R]) planNewByKey(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	t, k, run := r.t, r.t.key, r.run
	w := t.objects.words
	if run == nil || !req.Config.Raw.IsFullyKnown() || run.pinnedScopeRefused(w.scope, w.resourceType, &resp.Diagnostics) {
		return
	}
	config, ok := readShaped[A](ctx, req.Config, &resp.Diagnostics)
	a := config.args
	key := k.of(a)
	if !ok || key == "" || (k.refuses != nil && k.refuses(a, false, &resp.Diagnostics)) {
		return
	}
	// The apply's destroy of the unconfirmed state receives the plan's
	// private state, not the state's: it carries the attempt there.
	if attempt, recorded := run.attempts.lostCreate(w.refNamespace, key); recorded {
		resp.Diagnostics.Append(attempt.record(ctx, resp.Private)...)
	}
	l, err := k.lookup(ctx, run.client, a)
	obj := l.obj
	if err != nil {
		run.warnOnce("key lookup:"+w.refNamespace, func() {
			text := k.say.notLookedUp(a, err)
			resp.Diagnostics.AddWarning(text.summary, text.detail)
		})
		return
	}
	if !l.found || run.attempts.has(keyReplaced(w.refNamespace), key+"\x00"+t.objects.id(obj)) {
		return
	}
	if !run.attempts.has(w.refNamespace, key) {
		text := k.say.taken(a, obj, "Nothing was sent.")
		resp.Diagnostics.AddAttributeError(k.attr, text.summary, text.detail)
		return
	}
	attempt, recorded := run.attempts.lostCreate(w.refNamespace, key)
	f, missing, err := r.judgeLost(ctx, attempt, recorded, obj)
	switch {
	case err != nil:
		text := k.say.notJudgedAtPlan(a, obj, err)
		resp.Diagnostics.AddWarning(text.summary, text.detail)
	case len(missing) > 0:
		text := k.say.notItsOwn(a, obj, f, missing, "Nothing was sent.")
		resp.Diagnostics.AddAttributeError(k.attr, text.summary, text.detail)
	default:
		// The apply records it only when it matches the configuration.
		if r.differsFromConfig(ctx, a, obj, k.say.recorded, f, &resp.Diagnostics) {
			return
		}
		text := k.say.foundAtPlan(a, obj, f)
		resp.Diagnostics.AddWarning(text.summary, text.detail)
	}
}

// judgeLost judges obj, found under the key of the lost attempt: what is
// missing for it to be the attempt's (none: it is), or a read of the
// evidence that failed.
func (r *moneyCoreResource[A, T, R]) judgeLost(ctx context.Context, attempt lostCreate, recorded bool, obj T) (foundObject, []string, error) {
	f, err := r.t.key.judge(ctx, r.run.client, attempt, recorded, obj)
	if err != nil {
		return f, nil, err
	}
	return f, attempt.missing(recorded, f), nil
}

// differsFromConfig refuses obj, found under the key (why says how, f
// what the evidence read), when it differs from the create request of the
// arguments a, or when no request can be made of them, and reports
// whether it refused.
func (r *moneyCoreResource[A, T, R]) differsFromConfig(ctx context.Context, a A, obj T, why string, f foundObject, diags *diag.Diagnostics) bool {
	t, k := r.t, r.t.key
	body, err := t.create.request(ctx, a, "")
	if err != nil {
		t.invalidRequest(err, diags)
		return true
	}
	if d := t.create.differences(body, obj); len(d) > 0 {
		text := k.say.differs(a, obj, why, f, d)
		diags.AddAttributeError(k.attr, text.summary, text.detail)
		return true
	}
	return false
}

// createByKey creates an object of a natural key: it looks the key up
// first, and records an object found under it only when this state
// recorded a lost attempt to make it and the evidence shows that attempt
// did; otherwise it records the attempt (lostCreate) and sends the create.
// An answer lost is recorded as an unconfirmed create, unless the key,
// looked up again (refound), finds the attempt's object.
func (r *moneyCoreResource[A, T, R]) createByKey(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	t, k, run := r.t, r.t.key, r.run
	w := t.objects.words
	defer forgetLostCreate(ctx, resp.Private, &resp.Diagnostics)
	plan, ok := readShaped[A](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	a := plan.args
	key := k.of(a)
	if k.refuses != nil && k.refuses(a, true, &resp.Diagnostics) {
		return
	}
	lctx, served := client.WithServedAt(ctx)
	look, err := k.lookup(lctx, run.client, a)
	existing := look.obj
	if err != nil {
		text := k.say.lookupFailed(a, err)
		resp.Diagnostics.AddError(text.summary, text.detail)
		return
	}
	if look.found {
		if !run.attempts.has(w.refNamespace, key) {
			text := k.say.taken(a, existing, "Nothing was sent.")
			resp.Diagnostics.AddAttributeError(k.attr, text.summary, text.detail)
			return
		}
		attempt, recorded := run.attempts.lostCreate(w.refNamespace, key)
		r.adoptLost(ctx, plan, attempt, recorded, existing, k.say.recorded, "Nothing was sent.", resp)
		return
	}
	body, err := t.create.request(ctx, a, "")
	if err != nil {
		t.invalidRequest(err, &resp.Diagnostics)
		return
	}
	// The attempt is recorded before it is sent: the state an unconfirmed
	// create leaves carries it, for the judgement of what the next apply
	// finds.
	attempt := newLostCreate(served.Last(), run.clock(), k.sent(body))
	resp.Diagnostics.Append(attempt.record(ctx, resp.Private)...)
	if resp.Diagnostics.HasError() {
		return
	}
	obj, err := t.create.post(ctx, run.client, body)
	switch {
	case err == nil:
	case errors.Is(err, client.ErrConflict) && k.conflict != nil:
		k.conflict(a, err, &resp.Diagnostics)
		return
	case createOutcomeUnknown(err, w.path):
		if k.refound {
			// The answer was lost: the key says whether the object was made.
			if again, lerr := k.lookup(ctx, run.client, a); lerr == nil && again.found {
				r.adoptLost(ctx, plan, attempt, true, again.obj, k.say.lost(err), "The create was sent and its answer lost.", resp)
				return
			}
		}
		r.recordUnconfirmedByKey(ctx, plan, err, resp)
		return
	default:
		text := k.say.refused(a, err)
		resp.Diagnostics.AddError(text.summary, text.detail)
		return
	}
	if k.existed != nil {
		if why := k.existed(look, served.Last(), obj); why != "" {
			// The upsert changed an object that was already there: never
			// recorded as a new one.
			text := k.say.upserted(a, obj, why)
			resp.Diagnostics.AddAttributeError(k.attr, text.summary, text.detail)
			return
		}
	}
	if d := t.create.differences(body, obj); len(d) > 0 {
		text := k.say.answeredDifferently(a, obj, d)
		resp.Diagnostics.AddError(text.summary, text.detail)
		return
	}
	tflog.Info(ctx, w.noun+" "+w.made, map[string]any{"id": t.objects.id(obj)})
	r.recordByKey(ctx, plan, obj, outcomeConfirmed, resp)
}

// adoptLost records obj, found under the key of the lost attempt, when the
// evidence shows the attempt made it and it matches the configuration;
// otherwise it refuses, naming it (why says how it was found, sent what
// was sent).
func (r *moneyCoreResource[A, T, R]) adoptLost(ctx context.Context, plan shapedState[A], attempt lostCreate, recorded bool, obj T, why, sent string, resp *resource.CreateResponse) {
	k := r.t.key
	a := plan.args
	f, missing, err := r.judgeLost(ctx, attempt, recorded, obj)
	switch {
	case err != nil:
		text := k.say.notJudged(a, obj, why, err, sent)
		resp.Diagnostics.AddError(text.summary, text.detail)
		return
	case len(missing) > 0:
		text := k.say.notItsOwn(a, obj, f, missing, sent)
		resp.Diagnostics.AddAttributeError(k.attr, text.summary, text.detail)
		return
	}
	if r.differsFromConfig(ctx, a, obj, why, f, &resp.Diagnostics) {
		return
	}
	text := k.say.adopted(a, obj, why, f)
	resp.Diagnostics.AddWarning(text.summary, text.detail)
	r.recordByKey(ctx, plan, obj, outcomeAdopted, resp)
}

// recordByKey writes the object its create confirmed or adopted to the
// state and identity.
func (r *moneyCoreResource[A, T, R]) recordByKey(ctx context.Context, plan shapedState[A], obj T, outcome createOutcome, resp *resource.CreateResponse) {
	r.t.create.created(ctx, &plan, obj, outcome, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setShaped(ctx, &resp.State, resp.State.Schema, plan)...)
	setIdentity(ctx, resp.Identity, id(plan), &resp.Diagnostics)
}

// recordUnconfirmedByKey records a create whose answer was lost and whose
// object was not found: the state holds the arguments and no id
// (Terraform keeps it tainted), and its private state the attempt, which
// the next apply judges what it finds by.
func (r *moneyCoreResource[A, T, R]) recordUnconfirmedByKey(ctx context.Context, plan shapedState[A], err error, resp *resource.CreateResponse) {
	w := r.t.objects.words
	tflog.Warn(ctx, w.noun+" create not confirmed", map[string]any{"error": err.Error()})
	clearUnknownArguments(ctx, &plan.args, &resp.Diagnostics)
	plan.clearUnknownComputed(ctx, &resp.Diagnostics)
	resp.Diagnostics.Append(setShaped(ctx, &resp.State, resp.State.Schema, plan)...)
	setIdentity(ctx, resp.Identity, id(plan), &resp.Diagnostics)
	resp.Diagnostics.AddError(w.unknown, r.t.key.say.unconfirmed(plan.args, err))
}

// unconfirmedByKey hands the attempt an unconfirmed state records to the
// run (attemptSet.recordLost), at its refresh (refresh: with a warning)
// or at its destroy before the retry.
func (r *moneyCoreResource[A, T, R]) unconfirmedByKey(ctx context.Context, state shapedState[A], p privateState, refresh bool, diags *diag.Diagnostics) {
	if r.run == nil {
		if refresh {
			notConfigured(diags)
		}
		return
	}
	attempt, recorded := recordedLostCreate(ctx, p)
	r.run.attempts.recordLost(r.t.objects.words.refNamespace, r.t.key.of(state.args), attempt, recorded)
	if refresh {
		text := r.t.key.say.notConfirmed(state.args)
		diags.AddWarning(text.summary, text.detail)
	}
}

// privateLostCreateKey is the private state key of a lostCreate.
const privateLostCreateKey = "lost_create"

// lostCreate is what the state records of a create sent without a ref_id:
// when it started and what it sent.
type lostCreate struct {
	// Started is when the attempt started: by the service's clock (the
	// Date of the answer to the lookup made just before the request) when
	// ByService, else by the machine's. Whole seconds.
	Started   time.Time `json:"started"`
	ByService bool      `json:"by_service"`
	// Sent are the fields the request set, by their API names.
	Sent map[string]string `json:"sent"`
}

// newLostCreate is the record of an attempt starting now: servedAt is the
// Date of the service's last answer (zero when none carried one), now the
// machine's clock.
func newLostCreate(servedAt time.Time, now func() time.Time, sent map[string]string) lostCreate {
	if !servedAt.IsZero() {
		return lostCreate{Started: servedAt.UTC().Truncate(time.Second), ByService: true, Sent: sent}
	}
	return lostCreate{Started: now().UTC().Truncate(time.Second), Sent: sent}
}

// record writes the attempt to the private state p, before the request is
// sent: the state an unconfirmed create leaves then carries it.
func (a lostCreate) record(ctx context.Context, p privateSetter) diag.Diagnostics {
	b, err := json.Marshal(a)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Attempt not recorded", "Encoding the record of the create failed: "+err.Error())
		return diags
	}
	return p.SetKey(ctx, privateLostCreateKey, b)
}

// forgetLostCreate removes the record of the attempt from the private
// state p once the create is settled (its object recorded).
func forgetLostCreate(ctx context.Context, p privateSetter, diags *diag.Diagnostics) {
	if !diags.HasError() {
		diags.Append(p.SetKey(ctx, privateLostCreateKey, nil)...)
	}
}

// recordedLostCreate reads the attempt an unconfirmed state records; ok is
// false when it records none (a state written before attempts were
// recorded).
func recordedLostCreate(ctx context.Context, p privateState) (lostCreate, bool) {
	var a lostCreate
	if p == nil {
		return a, false
	}
	b, diags := p.GetKey(ctx, privateLostCreateKey)
	if diags.HasError() || len(b) == 0 || json.Unmarshal(b, &a) != nil || a.Started.IsZero() {
		return lostCreate{}, false
	}
	return a, true
}

// startedText is when the attempt started, with whose clock.
func (a lostCreate) startedText() string {
	clock := "the service's clock"
	if !a.ByService {
		clock = "this machine's clock"
	}
	return a.Started.UTC().Format(time.RFC3339) + " by " + clock
}

// foundObject is what the service shows of an object found under the name
// of a lost create.
type foundObject struct {
	// holds is the object's value of each field the attempt sent (nil:
	// it has none).
	holds map[string]*string
	// madeSince says whether the service made it at or after the
	// attempt started; made says when, in words, for the messages.
	madeSince bool
	made      string
	// others are the other objects that could as well be the attempt's.
	others []string
}

// missing lists what is missing for the object found to be the one the
// attempt a made (nil: it is); recorded is false when the state records
// no start of the attempt (an earlier provider version).
func (a lostCreate) missing(recorded bool, f foundObject) []string {
	if !recorded {
		return []string{"the state recorded the attempt without the time it started (an earlier version of the " +
			"provider recorded it), so nothing shows that the service made this object after it"}
	}
	var out []string
	names := make([]string, 0, len(a.Sent))
	for name := range a.Sent {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if got := deref(f.holds[name]); got != a.Sent[name] {
			out = append(out, fmt.Sprintf("%s: the attempt sent %q, the object holds %q", name, a.Sent[name], shown(got)))
		}
	}
	if !f.madeSince {
		out = append(out, fmt.Sprintf("made %s, not after the attempt started (%s)", f.made, a.startedText()))
	}
	if len(f.others) > 0 {
		out = append(out, fmt.Sprintf("%d other object(s) could as well be the attempt's: %s", len(f.others),
			shown(fmt.Sprint(f.others))))
	}
	return out
}

// lostCreates are the attempts of the unconfirmed states of a run, by
// namespace and name (see attemptSet.recordLost).
type lostCreates map[string]lostCreate

// recordLost records the unconfirmed create of namespace and name that the
// state of this run records (has reports it), with its attempt when the
// state recorded one.
func (a *attemptSet) recordLost(namespace, name string, attempt lostCreate, recorded bool) {
	a.add(namespace, name)
	if a == nil || name == "" || !recorded {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lost == nil {
		a.lost = lostCreates{}
	}
	a.lost[refKey(namespace, name)] = attempt
}

// lostCreate is the attempt the state of this run records for namespace
// and name; recorded is false when it records none, or no start.
func (a *attemptSet) lostCreate(namespace, name string) (attempt lostCreate, recorded bool) {
	if a == nil {
		return lostCreate{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	attempt, recorded = a.lost[refKey(namespace, name)]
	return attempt, recorded
}
