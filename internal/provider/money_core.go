package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The money-moving core: the whole life of an object created with a
// ref_id, the service's replay protection (it never processes two requests
// with the same ref_id). Planning the key, claiming it in the plan, asking
// the service at plan what the apply will do, sending, sorting the answer,
// recording an unconfirmed attempt, judging an earlier object found under
// the key, and the refresh and import of what was made are here and in
// money_lifecycle.go, which drives them: a resource is a declaration
// (moneyType) of its words (createWords), how to read its objects
// (moneyObjects), its request, its comparison of answer with request and its
// refresh policy.
//
// # Which ref_id
//
// A configured ref_id is sent as it is: it is the user's own name for the
// intent. Otherwise the ref_id is derived from the request itself
// (derivedRefID): a name-based UUID of the request without its ref_id. It
// depends on nothing but the configuration, so every plan of the same
// declared object, the final plan Terraform makes during apply, and the
// next run after a crash, a timeout or a cancelled pipeline all send the
// same ref_id, and nothing about it lives in a process's memory. Two
// objects of one configuration with the same ref_id would be one object
// for the service: plannedRefIDs refuses them at plan.
//
// # An earlier object under the key
//
// A derived ref_id says that two requests look alike, not that they are
// the same intent: the same payment declared again a month later, or by
// another configuration, derives the same key. So an object the service
// already holds under a derived ref_id is recorded as this resource's only
// with evidence (judgeEarlier):
//   - this state recorded the attempt: an unconfirmed create kept in the
//     state (after a timeout, server errors, or a graceful stop), which the
//     refresh (at plan) or the destroy of the tainted object (at apply)
//     reports to the plan and the create of its retry in the same process
//     (attemptSet); or
//   - the service made it within the recovery window before now (a run
//     killed mid-apply and run again), judged by the service's clock: the
//     object's created_at against the Date of the answer that carried it.
//
// Anything else is another intent: the plan (or the apply, where the
// service cannot be asked at plan) fails, sends nothing, records nothing,
// and names the earlier object with both ways on: import it, or give this
// one a ref_id of its own. An earlier object under a configured ref_id is
// adopted when it matches the request.
//
// # What the answer means
//
// createRun.run sends the request and sorts the answer into one of four
// outcomes:
//   - confirmed: a 2xx whose object matches the request and was made by
//     this request;
//   - adopted: an object made earlier with the ref_id (a 409 whose problem
//     body carries meta.existing, a 2xx replaying the original, or one
//     found by a lookup before sending) that matches the request and that
//     judgeEarlier accepts: it is not made again;
//   - unconfirmed: no answer that says whether the service processed it (a
//     timeout, or server errors until the retries ran out): the caller
//     records what it sent and fails, and the next run retries with the same
//     ref_id;
//   - refused: everything else, with nothing sent, including an answer that
//     does not match the request and an earlier object without evidence.

// refIDNamespace is the UUID namespace of derived ref_ids.
var refIDNamespace = uuid.MustParse("6f1c2a8e-4b7d-5e3f-9a10-2c4d6e8f0a1b")

// derivedRefID is the ref_id of a request whose configuration sets none:
// the UUID (version 5) in refIDNamespace of namespace, a NUL byte and the
// canonical JSON of req (object keys sorted, no spacing), where req has no
// ref_id. ok is false when req cannot be encoded.
func derivedRefID(namespace string, req any) (string, bool) {
	b, err := canonicalJSON(req)
	if err != nil {
		return "", false
	}
	return uuid.NewSHA1(refIDNamespace, append([]byte(namespace+"\x00"), b...)).String(), true
}

// canonicalJSON encodes v with object keys sorted and no spacing.
func canonicalJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return json.Marshal(generic)
}

// refKey keys the ref_ids of one namespace in the maps of a run
// (plannedRefIDs, attemptSet, lookupCache): ref_ids of different
// namespaces are separate at the service.
func refKey(namespace, refID string) string { return namespace + "\x00" + refID }

// plannedRefIDs are the ref_ids that the objects of one plan will create
// with, by namespace. A provider configuration (one plan or apply) has its own;
// safe for concurrent use.
type plannedRefIDs struct {
	mu   sync.Mutex
	seen map[string]string
}

// claim records that an object described by what plans to create with
// refID. When another object of the same namespace already did, it returns that
// object's description and false.
func (p *plannedRefIDs) claim(namespace, refID, what string) (string, bool) {
	if p == nil || refID == "" {
		return "", true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen == nil {
		p.seen = map[string]string{}
	}
	key := refKey(namespace, refID)
	if other, dup := p.seen[key]; dup {
		return other, false
	}
	p.seen[key] = what
	return "", true
}

// claimPlannedRefID refuses, with an error on ref_id, a create whose ref_id
// another object of the same namespace in this plan also creates with.
func claimPlannedRefID(run *moneyRun, words createWords, refID, what string, derived bool, diags *diag.Diagnostics) {
	if run == nil {
		return
	}
	other, ok := run.planned.claim(words.refNamespace, refID, what)
	if ok {
		return
	}
	why := "Both configure this ref_id."
	if derived {
		why = "Neither configures a ref_id, and their arguments are the same, so the ref_id derived from them is " +
			"the same."
	}
	diags.AddAttributeError(path.Root("ref_id"), "Two "+words.plural+" with the same ref_id",
		fmt.Sprintf("This %s (%s) and another %s of this configuration (%s) would both be created with ref_id %s. "+
			"%s The service processes one request per ref_id, so they would be one %s, not two.\n\n"+
			"If you mean two, give each its own ref_id, for example ref_id = \"payout-${count.index}\" with count, "+
			"or ref_id = \"payout-${each.key}\" with for_each. If you mean one, declare it once.",
			words.resourceType, what, words.resourceType, other, refID, why, words.noun))
}

// newObjectPlan is what ModifyPlan of a new object gives the core.
type newObjectPlan[T any] struct {
	objects moneyObjects[T]
	// configured is the ref_id argument; derive derives one from the
	// arguments (ok is false when it cannot).
	configured types.String
	derive     func() (string, bool)
	// successor derives the ref_id after the object of id after, for a
	// new object whose derived ref_id is that of an object this run
	// replaces or deletes (attemptSet.replacing); nil: none.
	successor func(after string) (string, bool)
	// what describes the object in messages.
	what string
	// show sets a derived ref_id in the plan (otherwise it is chosen at
	// apply, see moneyObjects.superseded).
	show bool
	// differences lists how an object found under the ref_id differs from
	// the request with that ref_id.
	differences func(refID string, obj T) []string
}

// planNewObject plans a new object: its ref_id (configured, or derived and
// shown in the plan when p.show), claimed against the other creates of the
// plan, and what the apply will do with an object the service already
// holds under it (askAtPlan). It returns the ref_id ("" when it cannot be
// derived), whether the apply sends the object (see askAtPlan), and the id
// of the object the apply records when it sends nothing ("" otherwise).
func planNewObject[T any](ctx context.Context, run *moneyRun, p newObjectPlan[T], resp *resource.ModifyPlanResponse) (string, types.Bool, string) {
	w := p.objects.words
	if run.pinnedScopeRefused(w.scope, w.resourceType, &resp.Diagnostics) {
		return "", types.BoolUnknown(), ""
	}
	refID := knownString(p.configured)
	derived := refID == ""
	if !derived {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefIDKey, originJSON(true))...)
	} else {
		var ok bool
		if refID, ok = p.derive(); !ok {
			return "", types.BoolUnknown(), ""
		}
		if after, replaced := run.attempts.replacedBy(w.refNamespace, refID); replaced && p.successor != nil {
			// The object replaced keeps this ref_id at the service.
			if refID, ok = p.successor(after); !ok {
				return "", types.BoolUnknown(), ""
			}
		}
		if p.show {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("ref_id"), refID)...)
		}
	}
	claimPlannedRefID(run, w, refID, p.what, derived, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || run == nil {
		return refID, types.BoolUnknown(), ""
	}
	sends, found := askAtPlan(ctx, run, p, refID, derived, &resp.Diagnostics)
	return refID, sends, found
}

// askAtPlan looks refID up at the service, so that the plan of a new
// object already says what the apply will do: nothing to note when the
// service holds no object under it; a warning that the apply records the
// earlier object and makes nothing when it matches and is this resource's
// (see evidence); an error otherwise. A lookup that cannot be made (no
// scope, a failure) is a warning, once per run, and the apply decides.
//
// It reports what the apply will do, and the id of the object it records:
// false when it records the object the service holds under refID, true
// otherwise: the service holds none, or the plan could not ask (no lookup, or an error, which the warning
// says), and then the apply may send it. Never unknown: the apply plans
// the object again, and a value known at plan must not turn unknown then
// (a lookup that fails at apply would fail the apply).
func askAtPlan[T any](ctx context.Context, run *moneyRun, p newObjectPlan[T], refID string, derived bool, diags *diag.Diagnostics) (types.Bool, string) {
	k := p.objects
	w := k.words
	if k.lookup == nil {
		return types.BoolValue(true), ""
	}
	found, servedAt, err := lookupOnce(ctx, run, k, refID)
	switch {
	case client.CredentialsRejected(err):
		diags.AddError(failure(w.title+" not checked at plan", err),
			fmt.Sprintf("The plan could not ask the service whether it already holds %s under the ref_id %s: %s."+
				"\n\nNo plan is made with credentials the service rejects: correct client_id and client_secret "+
				"(or PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET) and plan again. Nothing was sent.", aNoun(w.noun), refID, err))
		return types.BoolUnknown(), ""
	case err != nil:
		tflog.Warn(ctx, "ref_id not looked up at plan", map[string]any{"ref_id": refID, "error": err.Error()})
		run.warnOnce("lookup:"+w.refNamespace, func() {
			diags.AddWarning(w.title+" not checked at plan",
				fmt.Sprintf("The plan could not ask the service whether it already holds %s under the ref_id "+
					"of each new one: %s.\n\nNothing is wrong with the plan, but it cannot say in advance whether "+
					"applying makes a new %s or finds one made earlier: the apply decides, by the same rule. %s",
					aNoun(w.noun), err, w.noun, lookupHint(err, k)))
		})
		return types.BoolValue(true), ""
	case found == nil:
		return types.BoolValue(true), ""
	}
	prior := *found
	id := k.shownID(prior)
	if derived && k.superseded != nil && k.superseded(prior) {
		// The apply moves past it to the next derived ref_id.
		return types.BoolValue(true), ""
	}
	if d := p.differences(refID, prior); len(d) > 0 {
		diags.AddAttributeError(path.Root("ref_id"), "ref_id "+refID+" already used by another "+w.noun,
			fmt.Sprintf("The service reports that ref_id %s was already used by %s %s (%s), which is not this "+
				"request:\n%s\n\nApplying this plan would make nothing. To %s this %s, give it a ref_id of its "+
				"own; if %s %s is the one you meant, change the arguments to match it, or import it.",
				refID, w.noun, id, k.describe(prior), bulletList(d), verbOf(w.made), w.noun, w.noun, id))
		return types.BoolUnknown(), ""
	}
	e := evidence{derived: derived, recorded: run.attempts.has(w.refNamespace, refID), window: run.recoveryWindow}
	created := k.createdAt(prior)
	if !e.accepts(created, servedAt) {
		summary, detail := earlierObjectError(k, prior, refID, servedAt, run.recoveryWindow, true)
		diags.AddAttributeError(path.Root("ref_id"), summary, detail)
		return types.BoolUnknown(), ""
	}
	when := "earlier"
	if !created.IsZero() {
		when = "at " + created.UTC().Format(time.RFC3339)
	}
	diags.AddWarning(fmt.Sprintf("%s already %s %s as %s", w.title, w.made, when, id),
		fmt.Sprintf("The service already holds %s %s (%s) under ref_id %s (%s). Applying records it and %s "+
			"nothing. To %s the same %s once more on purpose, give it a new ref_id.",
			w.noun, id, k.describe(prior), refID, e.why(created, servedAt), verbOf(w.made)+"s", verbOf(w.made), w.noun))
	return types.BoolValue(false), k.id(prior)
}

// lookupCache holds the lookups of one provider process, so that a ref_id
// is looked up at most once per plan; safe for concurrent use.
type lookupCache struct {
	mu   sync.Mutex
	done map[string]*lookupEntry
	// gatherers gather the lookups and reads of each namespace
	// (money_gathering.go).
	gatherers map[string]any
}

type lookupEntry struct {
	once     sync.Once
	found    any
	servedAt time.Time
	err      error
}

// lookupOnce looks refID up with k.lookup once per provider process.
// found is nil when the service holds no object under it.
func lookupOnce[T any](ctx context.Context, run *moneyRun, k moneyObjects[T], refID string) (*T, time.Time, error) {
	l := &run.lookups
	l.mu.Lock()
	if l.done == nil {
		l.done = map[string]*lookupEntry{}
	}
	key := refKey(k.words.refNamespace, refID)
	e := l.done[key]
	if e == nil {
		e = &lookupEntry{}
		l.done[key] = e
	}
	l.mu.Unlock()
	e.once.Do(func() {
		obj, ok, servedAt, err := lookupGathered(ctx, run, k, refID)
		e.servedAt, e.err = servedAt, err
		if ok && err == nil {
			e.found = &obj
		}
	})
	if e.err != nil {
		return nil, time.Time{}, e.err
	}
	found, _ := e.found.(*T)
	return found, e.servedAt, nil
}

// attemptSet holds the ref_ids of the unconfirmed creates that the state
// of this run records, by namespace: the refresh of an unconfirmed object (at
// plan) and its destroy before its retry (at apply) add its ref_id, and the
// plan and the create of its retry read it as the evidence that an object
// found under the ref_id is the one that attempt made. It only mirrors the
// state; safe for concurrent use.
type attemptSet struct {
	mu   sync.Mutex
	refs map[string]bool
	// lost are the attempts of the unconfirmed creates without a ref_id
	// (lost_create.go).
	lost lostCreates
	// replaced maps a ref_id to the object of a type whose deleted objects
	// keep their ref_id (typeChange.refIDKept) that this run replaces or
	// deletes: a new object deriving that ref_id takes its successor.
	replaced map[string]string
}

// replacing records that this run replaces or deletes the object id,
// whose new object would derive refID in namespace.
func (a *attemptSet) replacing(namespace, refID, id string) {
	if a == nil || refID == "" || id == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.replaced == nil {
		a.replaced = map[string]string{}
	}
	a.replaced[refKey(namespace, refID)] = id
}

// replacedBy is the object this run replaces or deletes whose ref_id in
// namespace is refID (see replacing).
func (a *attemptSet) replacedBy(namespace, refID string) (string, bool) {
	if a == nil {
		return "", false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.replaced[refKey(namespace, refID)]
	return id, ok
}

// add records an unconfirmed attempt in namespace with refID.
func (a *attemptSet) add(namespace, refID string) {
	if a == nil || refID == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refs == nil {
		a.refs = map[string]bool{}
	}
	a.refs[refKey(namespace, refID)] = true
}

// has reports whether the state of this run records an unconfirmed
// attempt in namespace with refID.
func (a *attemptSet) has(namespace, refID string) bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.refs[refKey(namespace, refID)]
}

// createWords are what differs between the callers of createRun.
type createWords struct {
	// refNamespace names the request in derived ref_ids and in plannedRefIDs.
	refNamespace string
	// resourceType is the Terraform type, e.g. platform_crypto_withdrawal.
	resourceType string
	// noun and plural name one object and several: "crypto withdrawal".
	noun, plural string
	// title starts a summary: "Crypto withdrawal".
	title string
	// unknown is the summary of a create whose outcome is unknown.
	unknown string
	// made is what the service does with an accepted request: "sent".
	made string
	// path and scope are the create's API path and OAuth scope.
	path, scope string
}

// filled is w with the words it leaves unset derived from its noun: the
// plural (the noun and "s", "es" after an s), the title (the noun with a
// capital) and the summary of an unknown outcome ("Outcome of <noun>
// create unknown" for an object the service creates, "Outcome of <noun>
// unknown" for one it sends or makes).
func (w createWords) filled() createWords {
	if w.plural == "" {
		w.plural = w.noun + "s"
		if strings.HasSuffix(w.noun, "s") {
			w.plural = w.noun + "es"
		}
	}
	if w.title == "" && w.noun != "" {
		w.title = strings.ToUpper(w.noun[:1]) + w.noun[1:]
	}
	if w.unknown == "" {
		what := w.noun
		if w.made == "created" {
			what += " create"
		}
		w.unknown = "Outcome of " + what + " unknown"
	}
	return w
}

// createOutcome is what the answer of a create means.
type createOutcome int

const (
	outcomeRefused createOutcome = iota
	outcomeConfirmed
	outcomeAdopted
	outcomeUnconfirmed
)

// moneyObjects is how the core reads the objects of one resource: what it
// supplies besides its request.
type moneyObjects[T any] struct {
	words createWords
	// id and createdAt read an answered object; createdAt is zero when the
	// answer has none.
	id        func(T) string
	createdAt func(T) time.Time
	// describe says what the object is in a few words, for messages: "0.5
	// BTC on BITCOIN to bc1q… from profile p".
	describe func(T) string
	// status is the object's status (nil: it has none).
	status func(T) string
	// lookup finds the object made with refID (nil: the service cannot be
	// asked). It runs with a context that records the answer's Date.
	lookup func(ctx context.Context, c *client.Client, refID string) (T, bool, error)
	// lookupScope is the OAuth scope of lookup and of the lists (default:
	// readScope, see scopeOfLookup).
	lookupScope string
	// keyWithoutLookup, for a type whose create looks its ref_id up first,
	// says what a service that offers no lookup of these objects (the
	// seed's interface) promises of their ref_id, as the warning of a
	// create sent without a lookup quotes it: the promise relied on. Set it
	// only where that interface has no lookup and makes the type's ref_id
	// its key of idempotence. Empty: nothing is ever sent without a
	// lookup.
	keyWithoutLookup string
	// get reads the object by id: client.ErrNotFound when the service
	// does not know it, errAnotherObject when it answers another one.
	get func(ctx context.Context, c *client.Client, id string) (T, error)
	// readScope is the OAuth scope of get.
	readScope string
	// lists, when set, reads many objects at once: the lookups and the
	// refreshes of these objects are gathered into list requests (see
	// money_gathering.go).
	lists *objectLists[T]
	// final, when set, reports from what the state records (recorded
	// reads one of its string attributes) that the object is in a state
	// the service moves it no further from: a refresh keeps what the last
	// read recorded and does not read it; an import still reads.
	final func(recorded func(name string) string) bool
	// superseded, when set, reports an object whose derived ref_id a new
	// create may move past (deposit instructions the service deprecated):
	// such an object is never adopted under a derived ref_id, and the
	// caller derives the next one. A configured ref_id names its object,
	// superseded or not.
	superseded func(T) bool
}

// scopeOfLookup is the OAuth scope of k's lookup: lookupScope, or
// readScope when it has none of its own.
func (k moneyObjects[T]) scopeOfLookup() string {
	if k.lookupScope != "" {
		return k.lookupScope
	}
	return k.readScope
}

// shownID is the id of obj as a message may show it (see shown).
func (k moneyObjects[T]) shownID(obj T) string { return shown(k.id(obj)) }

// replaySkew is how much older than the request a 2xx answer's object must
// be to be taken for a replay of an earlier request rather than the
// object this request made: clocks and processing time differ by seconds,
// not minutes.
const replaySkew = 2 * time.Minute

// createRun is one create of an object of type T.
type createRun[T any] struct {
	objects moneyObjects[T]
	refID   string
	// derived: the ref_id was derived from the arguments, so an earlier
	// object under it needs evidence (see judgeEarlier).
	derived bool
	// recorded: this state recorded an earlier attempt with this ref_id
	// (attemptSet).
	recorded bool
	// window is the recovery window; now the machine's clock, used only to
	// tell a replayed 2xx from a fresh one when the answer has no Date.
	window time.Duration
	now    func() time.Time
	// send sends the request with refID.
	send func(ctx context.Context) (T, error)
	// existing returns the object a 409 answer reports as made earlier with
	// refID.
	existing func(err error) (T, bool)
	// differences lists how an answered object differs from the request,
	// one "field: requested x, answered y" line each.
	differences func(T) []string
	// plannedID is the id of the object the plan found under the ref_id
	// and said the apply records (money.sends = false): recordFound
	// records that object and no other.
	plannedID string
	// lookupFirst looks the ref_id up before sending (objects.lookup): an
	// object made earlier with it is judged like a replay answer, and
	// nothing is sent. For objects whose replay answer the service does not
	// publish.
	lookupFirst bool
	// runState holds the lookups of this run (see lookupOnce).
	runState *moneyRun
}

// createResult is the outcome of a createRun.
type createResult[T any] struct {
	outcome createOutcome
	// obj is the confirmed or adopted object, or the superseded one.
	obj T
	// superseded: the object found under the ref_id is superseded (see
	// moneyObjects.superseded); nothing was sent.
	superseded bool
	// err is the error of an unconfirmed create.
	err error
}

// run sends the request and sorts its answer. Diagnostics hold the
// warning of an adopted object and the error of a refused request; the
// caller explains an unconfirmed one in its own terms.
func (c createRun[T]) run(ctx context.Context) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.objects.words
	if c.lookupFirst && c.objects.lookup != nil && c.runState != nil {
		// The plan of this process looked it up a moment ago, if it could.
		prior, servedAt, err := lookupOnce(ctx, c.runState, c.objects, c.refID)
		switch {
		case client.IsOperationNotOffered(err) && c.objects.keyWithoutLookup != "":
			// The service itself answers that it has no list to look in
			// (the seed's has none of deposit instructions), and its
			// interface makes the ref_id the key of idempotence: that
			// promise is what protects the request.
			c.runState.warnOnce("no lookup:"+w.refNamespace, func() {
				diags.AddWarning(w.title+" sent without looking its ref_id up",
					fmt.Sprintf("The service answered that it offers no operation to look %s up by ref_id (%s). "+
						"The provider sends each request with its ref_id, and relies on this: %s. A request sent "+
						"again under the same ref_id must then make nothing new; a service that does not honour "+
						"it could make a second one on a retry.", w.plural, err, c.objects.keyWithoutLookup))
			})
		case err != nil:
			// The lookup is these objects' only protection against making
			// a second object: without it, nothing is sent. An answer that
			// is not the service's (a gateway's 404 page) says nothing of
			// what the service holds.
			tflog.Warn(ctx, "looking up the ref_id failed; nothing sent", map[string]any{
				"ref_id": c.refID, "error": err.Error(),
			})
			diags.AddError(failure(w.title+" not "+w.made+": ref_id not looked up", err),
				fmt.Sprintf("Before it sends %s, the provider looks its ref_id %s up, because the service does "+
					"not say when a request with a ref_id it already processed is sent again: an earlier attempt "+
					"may have made it. The lookup failed: %s.\n\nNothing was %s. %s Then apply again: the retry "+
					"sends the same ref_id.", aNoun(w.noun), c.refID, err, w.made, lookupHint(err, c.objects)))
			return createResult[T]{}, diags
		case prior != nil:
			return c.replayed(ctx, *prior, servedAt)
		}
	}
	sctx, served := client.WithServedAt(ctx)
	start := c.now()
	obj, err := c.send(sctx)
	elapsed := c.now().Sub(start)
	if err == nil {
		if d := c.differences(obj); len(d) > 0 {
			tflog.Error(ctx, w.noun+" answered differently from the request", map[string]any{
				"ref_id": c.refID, "id": c.objects.shownID(obj), "differences": d,
			})
			diags.AddError(w.title+" answered differently from the request",
				fmt.Sprintf("The service answered the request with ref_id %s with %s %s, which differs from the "+
					"request:\n%s\n\nThe provider does not record an answer it cannot trust. Nothing will be sent "+
					"again under this ref_id: applying again sends the same ref_id, and the service answers with the "+
					"object it made, which is checked again. Check %s %s with the service before changing the "+
					"configuration.", c.refID, w.noun, c.objects.shownID(obj), bulletList(d), w.noun, c.objects.shownID(obj)))
			return createResult[T]{}, diags
		}
		if c.replayedAnswer(obj, served.Last(), elapsed) {
			return c.replayed(ctx, obj, served.Last())
		}
		return createResult[T]{outcome: outcomeConfirmed, obj: obj}, diags
	}
	if prior, ok := c.existing(err); ok {
		return c.replayed(ctx, prior, served.Last())
	}
	if errors.Is(err, client.ErrConflict) && c.objects.lookup != nil && c.runState != nil {
		// A 409 that does not carry the object (the reference's answer to
		// a reused ref_id of an internal transfer): the object is found
		// by its ref_id, and judged as a replay answer.
		return c.conflicted(ctx, err)
	}
	if createOutcomeUnknown(err, w.path) {
		tflog.Warn(ctx, w.noun+" not confirmed", map[string]any{"ref_id": c.refID, "error": err.Error()})
		return createResult[T]{outcome: outcomeUnconfirmed, err: err}, diags
	}
	summary, detail := refusal(w, err, c.refID)
	diags.AddError(failure(summary, err), detail)
	return createResult[T]{}, diags
}

// conflicted sorts a 409 that does not carry the object made earlier with
// the ref_id: it looks the ref_id up (afresh: the plan may have looked
// before the earlier request was made) and judges what it finds as a
// replay answer. What cannot be found is refused: the service says the
// ref_id is used, and nothing is sent again under it.
func (c createRun[T]) conflicted(ctx context.Context, conflict error) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.objects.words
	lctx, served := client.WithServedAt(ctx)
	prior, found, err := c.objects.lookup(lctx, c.runState.client, c.refID)
	if err == nil && found {
		return c.replayed(ctx, prior, served.Last())
	}
	why := "no " + w.noun + " is listed under it"
	if err != nil {
		why = "looking it up failed: " + err.Error()
	}
	diags.AddError(failure("ref_id "+c.refID+" already used", conflict),
		fmt.Sprintf("The service reports that ref_id %s is already used (%s), and %s, so the provider cannot "+
			"tell whether it is this request.\n\nNothing was %s, and nothing is sent again under this ref_id. "+
			"Apply again to look it up again (reading it needs the OAuth scope %s); to %s a new %s, give it "+
			"another ref_id.", c.refID, conflict, why, w.made, c.objects.scopeOfLookup(), verbOf(w.made), w.noun))
	return createResult[T]{}, diags
}

// recordFound records the object the plan found under the ref_id, for a
// plan that said applying records it and sends nothing (money.sends =
// false): it looks the ref_id up again, as the plan did, and adopts the
// object when it is still this request and judgeEarlier still accepts it.
// Nothing is ever sent: when the lookup fails, finds nothing, or finds an
// object the plan would not have recorded, the apply fails, saying so,
// instead of sending what the reviewed plan said it would not.
func (c createRun[T]) recordFound(ctx context.Context) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.objects.words
	planned := fmt.Sprintf("The plan found %s under ref_id %s at the service, and said that applying records it "+
		"and %s nothing (money.sends = false).", withArticle(w.noun), c.refID, verbOf(w.made)+"s")
	var (
		prior    *T
		servedAt time.Time
		err      error
	)
	if c.objects.lookup == nil || c.runState == nil {
		err = errors.New("the service offers no lookup of " + w.plural + " by ref_id")
	} else {
		prior, servedAt, err = lookupOnce(ctx, c.runState, c.objects, c.refID)
	}
	switch {
	case err != nil:
		tflog.Warn(ctx, "looking up the ref_id the plan found failed; nothing sent", map[string]any{
			"ref_id": c.refID, "error": err.Error(),
		})
		diags.AddError(failure(w.title+" not recorded: ref_id not looked up", err),
			fmt.Sprintf("%s Looking the ref_id up again to record it failed: %s.\n\nNothing was %s and nothing was "+
				"recorded. %s Then apply again, or plan again.", planned, err, w.made, lookupHint(err, c.objects)))
		return createResult[T]{}, diags
	case prior == nil:
		tflog.Warn(ctx, "the object the plan found under the ref_id is no longer found; nothing sent", map[string]any{
			"ref_id": c.refID,
		})
		diags.AddAttributeError(path.Root("ref_id"), fmt.Sprintf("%s the plan found is no longer found", w.title),
			fmt.Sprintf("%s Looking the ref_id up again at apply found no %s under it.\n\nNothing was %s and "+
				"nothing was recorded: applying never %s what the reviewed plan said it would not. Plan again; the "+
				"new plan says whether applying %s it.", planned, w.noun, w.made, verbOf(w.made)+"s",
				verbOf(w.made)+"s"))
		return createResult[T]{}, diags
	}
	id := c.objects.shownID(*prior)
	if got := c.objects.id(*prior); got == "" || got != c.plannedID {
		tflog.Warn(ctx, "the ref_id the plan found names another object at apply; nothing sent", map[string]any{
			"ref_id": c.refID, "planned_id": shown(c.plannedID), "id": id,
		})
		planned := fmt.Sprintf("The plan found %s %s under ref_id %s at the service, and said that applying "+
			"records it and %s nothing (money.sends = false).", w.noun, shown(c.plannedID), c.refID, verbOf(w.made)+"s")
		if c.plannedID == "" {
			planned = fmt.Sprintf("The plan said that applying records the %s found under ref_id %s and %s nothing "+
				"(money.sends = false), but does not say which: it was made by another version of the provider.",
				w.noun, c.refID, verbOf(w.made)+"s")
		}
		diags.AddAttributeError(path.Root("ref_id"), fmt.Sprintf("%s the plan found is no longer the one under its ref_id", w.title),
			fmt.Sprintf("%s Looking the ref_id up again at apply found %s %s (%s) instead.\n\nNothing was %s and "+
				"nothing was recorded: applying records only the object the reviewed plan found. Check %s %s "+
				"with the service, then plan again; the new plan says what applying does.", planned, w.noun, id,
				c.objects.describe(*prior), w.made, w.noun, id))
		return createResult[T]{}, diags
	}
	if d := c.differences(*prior); len(d) > 0 {
		diags.AddAttributeError(path.Root("ref_id"), "ref_id "+c.refID+" already used by another "+w.noun,
			fmt.Sprintf("%s The service now reports that ref_id %s is used by %s %s, which is not this request:\n%s"+
				"\n\nNothing was %s and nothing was recorded. To %s this %s, give it a ref_id of its own; if %s %s "+
				"is the one you meant, change the arguments to match it, or import it.", planned, c.refID, w.noun, id,
				bulletList(d), w.made, verbOf(w.made), w.noun, w.noun, id))
		return createResult[T]{}, diags
	}
	if !c.judgeEarlier(*prior, servedAt, &diags) {
		return createResult[T]{}, diags
	}
	tflog.Info(ctx, w.noun+" the plan found recorded; nothing sent", map[string]any{"ref_id": c.refID, "id": id})
	diags.AddWarning(fmt.Sprintf("%s %s recorded, not %s", w.title, id, w.made),
		fmt.Sprintf("%s Applying recorded %s %s (%s) and %s nothing; the state now holds it. To %s the same %s once "+
			"more on purpose, give it a new ref_id.", planned, w.noun, id, c.why(*prior, servedAt), w.made,
			verbOf(w.made), w.noun))
	return createResult[T]{outcome: outcomeAdopted, obj: *prior}, diags
}

// replayedAnswer reports whether a 2xx answer carries an object made
// before this request (the spec's replay answer: the original object
// again): its created_at precedes the answer's Date (or, without one, the
// machine's clock) by more than the request took plus replaySkew.
func (c createRun[T]) replayedAnswer(obj T, servedAt time.Time, elapsed time.Duration) bool {
	created := c.objects.createdAt(obj)
	if created.IsZero() {
		return false
	}
	if servedAt.IsZero() {
		servedAt = c.now()
	}
	return servedAt.Sub(created) > elapsed+replaySkew
}

// replayed sorts an object the service reports as made earlier with the
// ref_id: adopted when it is this request and judgeEarlier accepts it,
// refused otherwise.
func (c createRun[T]) replayed(ctx context.Context, prior T, servedAt time.Time) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.objects.words
	id := c.objects.shownID(prior)
	if c.derived && c.objects.superseded != nil && c.objects.superseded(prior) {
		return createResult[T]{outcome: outcomeRefused, obj: prior, superseded: true}, diags
	}
	if d := c.differences(prior); len(d) > 0 {
		diags.AddError("ref_id "+c.refID+" already used by another "+w.noun,
			fmt.Sprintf("The service reports that ref_id %s was already used by %s %s, which is not this "+
				"request:\n%s\n\nNothing was %s, and the state does not claim otherwise. To %s this %s, give "+
				"it a ref_id of its own; if %s %s is the one you meant, change the arguments to match it, or "+
				"import it.", c.refID, w.noun, id, bulletList(d), w.made, verbOf(w.made), w.noun,
				w.noun, id))
		return createResult[T]{}, diags
	}
	if !c.judgeEarlier(prior, servedAt, &diags) {
		return createResult[T]{}, diags
	}
	tflog.Info(ctx, w.noun+" made earlier with this ref_id; not made again", map[string]any{
		"ref_id": c.refID, "id": id,
	})
	diags.AddWarning(w.title+" was "+w.made+" earlier, not "+w.made+" again",
		fmt.Sprintf("The service reports that the request with ref_id %s was already %s earlier, as %s %s "+
			"(%s). It was not %s again; the state now holds %s %s. To %s the same %s once more on purpose, set "+
			"a new ref_id.", c.refID, w.made, w.noun, id, c.why(prior, servedAt), w.made, w.noun, id,
			verbOf(w.made), w.noun))
	return createResult[T]{outcome: outcomeAdopted, obj: prior}, diags
}

// evidence is why an earlier object under a ref_id is this resource's.
type evidence struct {
	derived  bool
	recorded bool
	window   time.Duration
}

// why says, for messages, why an accepted earlier object is this one's.
func (c createRun[T]) why(prior T, servedAt time.Time) string {
	return evidence{c.derived, c.recorded, c.window}.why(c.objects.createdAt(prior), servedAt)
}

func (e evidence) why(created, servedAt time.Time) string {
	switch {
	case !e.derived:
		return "the ref_id is configured"
	case e.recorded:
		return "this state recorded the attempt that made it"
	}
	return fmt.Sprintf("made %s ago by the service's clock, within the recovery window of %s", age(created, servedAt), e.window)
}

// accepts reports whether an earlier object made at created, reported in
// an answer dated servedAt, is this resource's (see the file comment).
func (e evidence) accepts(created, servedAt time.Time) bool {
	if !e.derived || e.recorded {
		return true
	}
	if created.IsZero() || servedAt.IsZero() {
		// Without both, the service's clock cannot judge its age.
		return false
	}
	return servedAt.Sub(created) <= e.window
}

// age renders how long before servedAt created was, or "an unknown time".
func age(created, servedAt time.Time) string {
	if created.IsZero() || servedAt.IsZero() {
		return "an unknown time"
	}
	d := servedAt.Sub(created)
	if d < 0 {
		d = 0
	}
	// A Date has whole seconds, a created_at finer ones: round.
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Round(24*time.Hour)/(24*time.Hour)))
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	}
	return d.Round(time.Second).String()
}

// judgeEarlier accepts an earlier object under the ref_id (see evidence),
// or adds the error that names it and both ways on.
func (c createRun[T]) judgeEarlier(prior T, servedAt time.Time, diags *diag.Diagnostics) bool {
	e := evidence{c.derived, c.recorded, c.window}
	if e.accepts(c.objects.createdAt(prior), servedAt) {
		return true
	}
	summary, detail := earlierObjectError(c.objects, prior, c.refID, servedAt, c.window, false)
	diags.AddAttributeError(path.Root("ref_id"), summary, detail)
	return false
}

// earlierObjectError is the error of an earlier object under a derived
// ref_id without evidence that it is this resource's, at plan or at apply.
func earlierObjectError[T any](k moneyObjects[T], prior T, refID string, servedAt time.Time, window time.Duration, atPlan bool) (summary, detail string) {
	w := k.words
	id := k.shownID(prior)
	made := "at an unknown time (the answer gives no creation time or no Date)"
	if created := k.createdAt(prior); !created.IsZero() {
		made = "at " + created.UTC().Format(time.RFC3339)
		if !servedAt.IsZero() {
			made += ", " + age(created, servedAt) + " ago by the service's clock"
		}
	}
	stop := "Nothing was " + w.made + " and nothing was recorded."
	if atPlan {
		stop = "Nothing will be " + w.made + ": this plan cannot be applied as it is."
	}
	summary = fmt.Sprintf("An earlier %s has the same arguments", w.noun)
	detail = fmt.Sprintf("The service already holds %s %s (%s), made %s, under ref_id %s, which the provider "+
		"derives from the arguments of this %s. The arguments are the same, but nothing says it is this "+
		"%s: this state did not record an attempt to make it, and it was made before the recovery window "+
		"(%s, the provider's recovery_window) of a run that ended without recording its answer. It looks like "+
		"another %s with the same arguments, such as the same payment declared again or by another "+
		"configuration. %s\n\n"+
		"If %s is this resource's %s, import it:\n\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
		"If this is a new %s that happens to look the same, give it a ref_id of its own, for example "+
		"ref_id = \"payout-2026-11\", and plan again.",
		w.noun, id, k.describe(prior), made, refID, w.noun, w.noun, window, w.noun, stop,
		id, w.noun, w.resourceType, id, w.noun)
	return summary, detail
}

// verbOf is the infinitive of a past participle of createWords.made.
func verbOf(made string) string {
	switch made {
	case "sent":
		return "send"
	case "created":
		return "create"
	}
	return made
}

// bulletList renders lines as a Markdown list.
func bulletList(lines []string) string {
	return "  - " + strings.Join(lines, "\n  - ")
}

// createOutcomeUnknown reports whether a create that failed with err may
// nevertheless have been processed by the service: every failure except an
// answer of the service that refuses the request (a failed token request
// means the request was never sent). Only a 4xx the service itself gives
// (its error body names an error code) says "not processed": a 408 or a
// 499, or a 4xx without the service's error body, may come from a proxy
// that gave up on a request the service went on to process.
func createOutcomeUnknown(err error, opPath string) bool {
	var redirect *client.RedirectError
	if errors.As(err, &redirect) {
		// The service answered with a redirect, which is never followed:
		// the request was not processed, and nothing reached the target.
		return false
	}
	var ae *client.APIError
	if !errors.As(err, &ae) {
		return true
	}
	if ae.Path != opPath {
		// The token request failed: the create was never sent.
		return false
	}
	switch {
	case ae.Status < 400 || ae.Status >= 500:
		return true
	case ae.Status == http.StatusRequestTimeout || ae.Status == statusClientClosedRequest:
		return true
	case ae.Status == http.StatusTooManyRequests:
		// Turned away before it was processed, by the service or in front
		// of it.
		return false
	}
	return ae.Code == ""
}

// statusClientClosedRequest is the status a proxy gives a request whose
// client went away (nginx's 499): the service may have processed it.
const statusClientClosedRequest = 499

// refusal is the diagnostic of a request the service refused: nothing was
// made.
func refusal(w createWords, err error, refID string) (summary, detail string) {
	switch {
	case errors.Is(err, client.ErrConflict):
		return "ref_id " + refID + " already used",
			fmt.Sprintf("The service reports that ref_id %s is already used, without saying by what: %s.\n\n"+
				"Nothing was %s. To %s a new %s, give it another ref_id. If the %s already made with this ref_id "+
				"is the one you want, nothing else is needed.", refID, err, w.made, verbOf(w.made), w.noun, w.noun)
	case errors.Is(err, client.ErrValidation):
		return w.title + " rejected",
			fmt.Sprintf("The service rejected the request with ref_id %s, so nothing was %s: %s.\n\n"+
				"Correct the arguments the answer names and apply again.", refID, w.made, err)
	case client.IsInsufficientFunds(err):
		return w.title + " refused: insufficient funds",
			fmt.Sprintf("The service refused the request with ref_id %s because the profile's balance does not cover "+
				"it, so nothing was %s and nothing is recorded: %s.\n\nFund the profile, or lower the amount, and "+
				"apply again: the retry sends the same ref_id.", refID, w.made, err)
	case errors.Is(err, client.ErrForbidden):
		return w.title + " refused",
			fmt.Sprintf("The service refused the request with ref_id %s, so nothing was %s: %s.\n\n"+
				"When the answer names a missing permission: this operation needs the OAuth scope %s; have it "+
				"granted to the client credentials, and if the provider's scopes argument pins the token's "+
				"scopes, include it there.", refID, w.made, err, w.scope)
	case errors.Is(err, client.ErrUnauthorized):
		return "Authentication failed",
			fmt.Sprintf("The request with ref_id %s was not sent: %s.\n\nCheck the provider's client_id and "+
				"client_secret.", refID, err)
	case errors.Is(err, client.ErrRateLimited):
		return w.title + " rate limited",
			fmt.Sprintf("The service kept answering 429 Too Many Requests, so the request with ref_id %s was not "+
				"processed: %s.\n\nApply again later; the retry sends the same ref_id.", refID, err)
	default:
		return w.title + " failed",
			fmt.Sprintf("The service refused the request with ref_id %s, so nothing was %s: %s.", refID, w.made, err)
	}
}

// recordUnconfirmedCreate fails a create whose outcome is unknown, whose
// state (its unknown values cleared, with the ref_id it was sent with) the
// caller wrote with the diagnostics recorded: Terraform keeps it tainted,
// and the next apply retries it with the same ref_id, this record being
// the evidence that an object found under it is this one (see attemptSet).
func recordUnconfirmedCreate(ctx context.Context, resp *resource.CreateResponse, w createWords, id types.String, refID string, err error, recorded diag.Diagnostics) {
	resp.Diagnostics.Append(recorded...)
	setIdentity(ctx, resp.Identity, id, &resp.Diagnostics)
	resp.Diagnostics.AddError(failure(w.unknown, err), unconfirmedDetail(w, refID, err))
}

// unconfirmedDetail explains a create whose outcome is unknown, for a
// resource whose next apply retries it with the same ref_id.
func unconfirmedDetail(w createWords, refID string, err error) string {
	return fmt.Sprintf("The request with ref_id %s was sent, but the service did not confirm it: %s.\n\n"+
		"It may or may not have been processed. Applying again without changing the arguments retries it with "+
		"the same ref_id %s, which the service never processes twice: if this attempt was processed, the service "+
		"reports the %s it made and the provider records it. To keep that guarantee even if you must change "+
		"the arguments, set ref_id = %q in the configuration first.", refID, err, refID, w.noun, refID)
}

// privateRefIDKey is the private state key under which a create records
// how its ref_id was chosen.
const privateRefIDKey = "ref_id"

// refIDOrigin is the private state of privateRefIDKey.
type refIDOrigin struct {
	// Configured: the configuration set the ref_id; otherwise it was
	// derived from the request.
	Configured bool `json:"configured"`
	// Plain is the ref_id derived from the request alone, when the one
	// sent is its successor (the object it replaced keeps the plain one).
	Plain string `json:"plain,omitempty"`
}

// privateState is what Create can record in and Read can read from an
// object's private state.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// recordedOrigin reads the origin of an object's ref_id; ok is false for
// objects written before ref_ids were derived.
func recordedOrigin(ctx context.Context, p privateState) (refIDOrigin, bool) {
	var o refIDOrigin
	if p == nil {
		return o, false
	}
	b, diags := p.GetKey(ctx, privateRefIDKey)
	if diags.HasError() || len(b) == 0 {
		return o, false
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, false
	}
	return o, true
}

// createKey is the ref_id a create sends: the one planned (configured, or
// derived and shown by the plan), else derived again from the arguments.
// derived says it is not configured, judged by the configuration (the
// plan holds a derived ref_id too). The create's private state records
// the origin. ok is false, with an error, when no ref_id can be had:
// nothing is sent then.
func createKey(ctx context.Context, w createWords, planned, configured types.String, derive func() (string, bool), private privateSetter, diags *diag.Diagnostics) (refID string, derived, ok bool) {
	derived = configured.IsNull()
	if refID = knownString(planned); refID != "" {
		origin := refIDOrigin{Configured: !derived}
		if plain, ok := derive(); derived && ok && plain != refID {
			origin.Plain = plain
		}
		b, _ := json.Marshal(origin)
		diags.Append(private.SetKey(ctx, privateRefIDKey, b)...)
		return refID, derived, true
	}
	diags.Append(private.SetKey(ctx, privateRefIDKey, originJSON(!derived))...)
	// The plan derives it; this is only a safeguard.
	if refID, ok = derive(); !ok {
		diags.AddError(w.title+" not "+w.made,
			fmt.Sprintf("The ref_id of the %s could not be derived from its arguments, so nothing was sent. This is "+
				"a bug in the provider; set ref_id in the configuration to work around it.", w.noun))
	}
	return refID, derived, ok
}

// privateSetter is the private state of a response.
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// originJSON is the private state of a ref_id's origin.
func originJSON(configured bool) []byte {
	b, _ := json.Marshal(refIDOrigin{Configured: configured})
	return b
}

// checkUnconfirmedOrigin refuses, with an error, to go on with an
// unconfirmed create whose ref_id is neither derived from its arguments nor
// recorded as configured: one recorded by a provider version that
// generated random ref_ids (or whose configured ref_id was removed since).
// Retrying it as planned would send the derived ref_id, a second key for
// the same request. Read receives the object's private state; Delete
// receives the plan's, where ModifyPlan records a configured ref_id.
func checkUnconfirmedOrigin(ctx context.Context, p privateState, w createWords, refID, derived string, diags *diag.Diagnostics) {
	if o, ok := recordedOrigin(ctx, p); (ok && o.Configured) || refID == "" || refID == derived {
		return
	}
	diags.AddError("Unconfirmed "+w.noun+" would be retried under a second ref_id",
		fmt.Sprintf("This %s was sent with ref_id %s, and the service never confirmed it: it may or may not "+
			"have been processed. That ref_id was generated by an earlier version of this provider (or configured "+
			"and since removed from the configuration). This version identifies each %s by a ref_id derived from "+
			"its arguments (%s here) unless one is configured, so retrying it as planned would send it under a "+
			"second key, and the service could process both. Nothing was sent.\n\n"+
			"To retry it under its own key, which the service never processes twice:\n"+
			"  1. set ref_id = %q in the configuration of this resource;\n"+
			"  2. run terraform state rm on this resource's address, so that Terraform forgets the unconfirmed "+
			"attempt;\n"+
			"  3. apply: the request is sent again with ref_id %s, and if the earlier attempt was processed the "+
			"service reports that %s instead of making a second one.",
			w.noun, refID, w.noun, derived, refID, refID, w.noun))
}

// recordUnconfirmed handles an unconfirmed create that the state records
// (Read at refresh, Delete before its retry): it refuses one whose ref_id
// would change on retry (checkUnconfirmedOrigin), and otherwise records the
// attempt for the plan and the create of its retry (attemptSet). It
// reports whether the caller may go on.
func recordUnconfirmed(ctx context.Context, run *moneyRun, p privateState, w createWords, refID, derived string, diags *diag.Diagnostics) bool {
	checkUnconfirmedOrigin(ctx, p, w, refID, derived, diags)
	if diags.HasError() {
		return false
	}
	if run != nil {
		run.attempts.add(w.refNamespace, refID)
	}
	return true
}

// refuseUnreadReplacement refuses, with an error, to plan the replacement
// of an object whose state was never read from the service (unread): an
// id with null arguments, as an import that could not read the object
// left it in earlier versions. Replacing it would make a new object from
// the configuration beside the one the id names. It reports whether it
// did.
func refuseUnreadReplacement(w createWords, id types.String, unread bool, diags *diag.Diagnostics) bool {
	if id.IsNull() || id.IsUnknown() || !unread {
		return false
	}
	diags.AddError(fmt.Sprintf("%s %s was never read", w.title, id.ValueString()),
		fmt.Sprintf("The state holds %s %s with no arguments: it was imported, but the service was never read "+
			"for it. Planning a replacement would make a new %s from the configuration beside it, so nothing is "+
			"planned.\n\nRefresh it (terraform apply -refresh-only) with credentials that can read it, which "+
			"fills in its arguments from the service; or, if %s is not the %s you meant, remove it from the "+
			"state (terraform state rm) and import the right one.", w.noun, id.ValueString(), w.noun,
			id.ValueString(), w.noun))
	return true
}

// recordedField is a value the state recorded and the one a read of the
// object answered.
type recordedField struct {
	name     string
	recorded types.String
	answered string
}

// recordedDifferences lists how an object read by id differs from what the
// state recorded: its id, and each recorded field that is known. A field
// the state never recorded (null, after an import) takes the answer.
func recordedDifferences(id types.String, answeredID string, fields []recordedField) []string {
	var d []string
	if answeredID != id.ValueString() {
		d = append(d, fmt.Sprintf("id: recorded %q, answered %q", id.ValueString(), answeredID))
	}
	return append(d, fieldDifferences(fields)...)
}

// fieldDifferences lists each recorded field that is known and differs
// from the answer.
func fieldDifferences(fields []recordedField) []string {
	var d []string
	for _, f := range fields {
		if v := knownString(f.recorded); v != "" && v != f.answered {
			d = append(d, fmt.Sprintf("%s: recorded %q, answered %q", f.name, v, f.answered))
		}
	}
	return d
}

// anotherObject is the error of a read whose answer is another object than
// the one in the state: the state is kept as it was.
func anotherObject(w createWords, id string, d []string, diags *diag.Diagnostics) {
	m := anotherObjectMessage(w, id, d)
	diags.AddError(m.summary, m.detail)
}

// anotherObjectMessage says that reading id answered another object, with
// the differences d.
func anotherObjectMessage(w createWords, id string, d []string) message {
	return message{fmt.Sprintf("The service answered with another %s than %s", w.noun, id),
		fmt.Sprintf("Reading %s %s answered an object that differs from the one the state records:\n%s\n\n"+
			"The provider does not record an answer it cannot trust, so the state is kept as it was and "+
			"nothing was %s. Check the provider's base_url and %s %s with the service.",
			w.noun, id, bulletList(d), w.made, w.noun, id)}
}

// cannotImport is the error of an import that could not read the object:
// nothing enters the state.
func cannotImport(w createWords, id string, err error, scope string, diags *diag.Diagnostics) {
	reason := "Check the id, the provider configuration and the service's availability, then import again."
	switch {
	case errors.Is(err, client.ErrNotFound):
		reason = fmt.Sprintf("The service does not know %s %s: check the id.", w.noun, id)
	case scopeRefused(err):
		reason = fmt.Sprintf("Reading it needs the OAuth scope %s: have it granted to the client credentials (and, "+
			"if the provider's scopes argument pins the token's scopes, include it there), then import again.", scope)
	}
	diags.AddError(failure(fmt.Sprintf("Cannot import %s %s", w.noun, id), err),
		fmt.Sprintf("Importing %s %s needs a read of it from the service, which failed: %s.\n\n%s Nothing was "+
			"imported and nothing was %s: an object that cannot be read is never recorded, so that no plan "+
			"can take it for missing and %s another.", w.noun, id, err, reason, w.made, verbOf(w.made)))
}

// notImportable is the error of an import whose object is not what was
// asked: nothing enters the state.
func notImportable(w createWords, id string, d []string, diags *diag.Diagnostics) {
	diags.AddError(fmt.Sprintf("%s is not %s", id, withArticle(w.noun)),
		fmt.Sprintf("The service answered the read of %s with an object that is not the %s asked for:\n%s\n\n"+
			"Nothing was imported and nothing was %s. Import the id of %s.", id, w.noun, bulletList(d), w.made,
			withArticle(w.noun)))
}

// withArticle is the noun with its indefinite article: "a fiat
// withdrawal", "an internal transfer".
func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// lookupHint says what to do about a lookup of ref_ids of k that failed
// with err: have its scope granted when the credentials may not make it;
// when the answer is not the service's (a gateway's or proxy's page),
// check what answers at base_url; when the service answers that it offers
// no such lookup, what that means for these objects (see
// moneyObjects.keyWithoutLookup); otherwise check the configuration and
// the service, never a scope.
func lookupHint[T any](err error, k moneyObjects[T]) string {
	switch {
	case scopeRefused(err):
		return fmt.Sprintf("Looking ref_ids up needs the OAuth scope %s; have it granted to the client credentials "+
			"(and, if the provider's scopes argument pins the token's scopes, include it there).", k.scopeOfLookup())
	case client.IsOperationNotOffered(err) && k.keyWithoutLookup != "":
		return fmt.Sprintf("If base_url is right, this service offers no such lookup, and the request relies on "+
			"its ref_id: %s.", k.keyWithoutLookup)
	case client.IsOperationNotOffered(err):
		return fmt.Sprintf("If base_url is right, this service offers no such lookup, and nothing the service "+
			"publishes promises that the ref_id of %s alone prevents a second one: the provider never sends one "+
			"without looking its ref_id up. Check base_url; to use %s made another way, import it.",
			aNoun(k.words.noun), aNoun(k.words.noun))
	case client.IsNoSuchOperation(err):
		return "The answer is not the service's (a page of a gateway or proxy in front of it, or another server at " +
			"this address), so it says nothing of what the service holds. Check base_url and what stands between " +
			"this machine and the service."
	}
	return "Check the provider configuration (base_url) and the service's availability."
}

// scopeRefused reports whether err means that the credentials may not make
// the call, and only that: the token endpoint's invalid_scope, or a 403 of
// the operation. Credentials the token endpoint rejects are not a refused
// scope: every path reports them as an error (see failure).
func scopeRefused(err error) bool {
	return client.ScopeRefused(err)
}

// failure is the summary of an error diagnostic about err: headed so that
// a reader knows the client credentials are wrong when the service rejected
// them, whatever the operation was.
func failure(summary string, err error) string {
	if client.CredentialsRejected(err) {
		return credentialsRejected + ": " + summary
	}
	return summary
}

// Identity and import: an object created with a ref_id is known by its
// service id, the identity of its resource; an import names that id, and
// the refresh that follows must read the object (see cannotImport).

// idIdentitySchema is the identity of a resource known by its service id.
func idIdentitySchema(what string) identityschema.Schema {
	return identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{
			RequiredForImport: true,
			Description:       "Identifier of the " + what + " at the service.",
		},
	}}
}

// setIdentity records id as the identity of the object. An object whose
// create was never confirmed has no id yet: its identity is the empty
// string (Terraform holds it tainted and replaces it).
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String, diags *diag.Diagnostics) {
	if identity == nil || id.IsUnknown() {
		return
	}
	diags.Append(identity.SetAttribute(ctx, path.Root("id"), id.ValueString())...)
}

// privateImportedKey marks, in private state, an object that was imported:
// the arguments the service does not report (fee_id, beneficiary) may then
// be recorded from the configuration without a replacement.
const privateImportedKey = "imported"

// importByID starts the import of the object id (by id or by identity);
// the refresh that follows reads it. It marks the object as imported.
func importByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImportedKey, []byte("true"))...)
}

// imported reports whether p marks an imported object.
func imported(ctx context.Context, p privateState) bool {
	if p == nil {
		return false
	}
	b, diags := p.GetKey(ctx, privateImportedKey)
	return !diags.HasError() && string(b) == "true"
}

// message is the summary and detail of a diagnostic.
type message struct{ summary, detail string }

// doesVerb is the verb of w's made in the third person ("sends", "makes").
func doesVerb(w createWords) string {
	switch w.made {
	case "made":
		return "makes"
	case "sent":
		return "sends"
	}
	return verbOf(w.made) + "s"
}
