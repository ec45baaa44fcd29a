package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Money movements on the core. A declaration whose objects move money
// (a withdrawal, a transfer, a conversion) says what each moves (moves):
// the core then sets its manifest (the computed money attribute) at plan,
// passes it through the provider's withdrawal_guard at plan, and again at
// the moment it is sent, whatever sends it: the resource's create, its
// action, a retry (sendMoney). No declaration calls the guards itself.

// movement is what one object of a money-moving declaration moves. Its
// values may be unknown at plan.
type movement struct {
	// kind is money.kind, registered by the type's file (movementKind).
	kind string
	// asset and amount are what leaves the profile from: amount is the
	// figure the service receives, the argument figureName ("amount", or
	// "total" when the object sets total).
	asset, amount types.String
	figureName    string
	// from is the profile the money leaves, to where it goes (an address,
	// a fiat account id, a profile id).
	from, to types.String
	// debits is the asset of from's balance that is debited when it is not
	// asset (a crypto withdrawal's balance_asset); null or unknown: asset.
	debits types.String
	// Where it goes for approved_destinations_only: a crypto address on a
	// network (for an identity), or a fiat account. Both null: the money
	// stays within the customer's own profiles.
	address, network, identity types.String
	fiatAccount                types.String
	// limitTypes are the transfer types whose service limits bound it
	// (check_service_limits); none: no transfer limit applies.
	limitTypes []string
	// what describes it in a few words, for messages.
	what string
	// standing: it moves no amount now but routes every future deposit to
	// where it goes (an orchestration rule): no figure to judge, so only
	// where it goes is (guardStanding), at plan and at send, with its
	// errors on destinationAttr.
	standing        bool
	destinationAttr path.Path
}

// addressAttr is the argument of m's crypto address: a standing
// movement's destination, or a withdrawal's destination_address.
func (m movement) addressAttr() path.Path {
	if m.standing {
		return m.destinationAttr
	}
	return path.Root("destination_address")
}

// manifest is the money attribute of m, sent with ref; its summary says
// what applying does in the words of says.
func (m movement) manifest(ref types.String, sends types.Bool, says summaryWords) moneyOf {
	return moneyOf{kind: m.kind, asset: m.asset, amount: m.amount, from: m.from, to: m.to, ref: ref, sends: sends,
		summary: m.summary(ref, sends, says)}
}

// summaryWords are what money.summary says beyond the words of a
// movement: the verb of what applying does ("sends", "makes",
// "creates"), and what the summary names the movement's fiat account
// by (fiat, see fiatAccountName; nil: by its id alone).
type summaryWords struct {
	does string
	fiat func(id string) string
}

// summaryWordsOf are the words of the summaries of objects of w, their
// fiat accounts named as run reads them.
func summaryWordsOf(ctx context.Context, run *moneyRun, w createWords) summaryWords {
	return summaryWords{does: doesVerb(w), fiat: func(id string) string { return fiatAccountName(ctx, run, id) }}
}

// Ends of money.summary: what destroying the object does.
const (
	destroyReversesNothing = "destroying it reverses nothing"
	destroyDeletesRule     = "destroying it deletes the rule, and reverses no deposit it routed"
)

// summary is money.summary of m sent with ref: what applying does
// ("sends ..." when sends is true; "records, sends nothing: ..." when
// the plan found the object under its ref_id), its words with its fiat
// account named, the ref_id, and what destroying it does, so that the
// diff of a create, of a replacement and of a destroy (which shows the
// values of the state going to null) says it. Unknown while any of them
// is.
func (m movement) summary(ref types.String, sends types.Bool, says summaryWords) types.String {
	for _, v := range []types.String{m.asset, m.amount, m.from, m.to, ref} {
		if v.IsUnknown() {
			return types.StringUnknown()
		}
	}
	if sends.IsUnknown() || sends.IsNull() {
		return types.StringUnknown()
	}
	what := m.what
	if id := knownString(m.fiatAccount); id != "" && says.fiat != nil {
		what = strings.Replace(what, "fiat account "+id, "fiat account "+id+" ("+says.fiat(id)+")", 1)
	}
	if r := ref.ValueString(); r != "" {
		what += ", ref_id " + r
	}
	does := says.does + " " + what
	if !sends.ValueBool() {
		does = "records, " + says.does + " nothing: " + what
	}
	end := destroyReversesNothing
	if m.standing {
		end = destroyDeletesRule
	}
	return types.StringValue(does + "; " + end)
}

// guarded is what the guards see of m, sent with refID; via names what
// sends it in messages. It is counted in the run's tally by its kind and
// refID (movementKey); an invocation, by its own (guardInvocation).
func (m movement) guarded(refID, via string) guardedMovement {
	w := guardedMovement{refID: refID, asset: knownString(m.asset), figureName: m.figureName,
		what: m.what, resourceType: via, destination: knownString(m.address), network: knownString(m.network),
		identity: knownString(m.identity), fiatAccount: knownString(m.fiatAccount), limitTypes: m.limitTypes,
		profile: knownString(m.from)}
	if w.figureName == "" {
		w.figureName = "amount"
	}
	w.raw = knownString(m.amount)
	w.figure, w.figureOK = parseAmount(w.raw)
	w.figureOK = w.figureOK && w.figure.IsPositive()
	w.assetKey, _ = assetKey(w.asset)
	w.debit, w.debitKey = w.asset, w.assetKey
	if d := knownString(m.debits); d != "" {
		w.debit, w.debitKey = d, ""
		w.debitKey, _ = assetKey(d)
	}
	w.key = movementKey(m.kind, refID, w)
	return w
}

// movementKey is what a movement is counted by in the run's tally: the
// kind and the ref_id of what the service makes once (its ref_ids are kept
// apart by kind), or the invocation, with the profile, assets and figure it
// moves, so that planning one object twice counts it once, and two
// movements (of two kinds, or two declarations of one ref_id that differ)
// are never folded into one.
func movementKey(kind, ref string, w guardedMovement) string {
	return strings.Join([]string{kind, ref, w.profile, w.assetKey, w.debitKey, w.figure.String()}, "\x00")
}

// planMovement follows the core's plan of a new object of t whose
// configuration is known: its manifest, and the guards' judgement.
func (t *moneyType[A, T, R]) planMovement(ctx context.Context, run *moneyRun, a A, refID string, sends types.Bool, resp *resource.ModifyPlanResponse) {
	m := t.plan.moves(a)
	setMoney(ctx, &resp.Plan, m.manifest(types.StringValue(refID), sends,
		summaryWordsOf(ctx, run, t.objects.words)), &resp.Diagnostics)
	// An object the plan found at the service under its ref_id is recorded
	// at apply, not sent (money.sends = false): like an object in the
	// state, it keeps the address it was made with.
	recorded := !sends.IsNull() && !sends.IsUnknown() && !sends.ValueBool()
	if moneyHalted(run, t.objects.words.resourceType, "", &resp.Diagnostics) ||
		(!recorded && checksumRefused(m.network, m.address, m.addressAttr(), t.objects.words.resourceType, "", &resp.Diagnostics)) {
		return
	}
	if m.standing {
		guardStanding(ctx, run, m, refID, t.objects.words.resourceType, "", &resp.Diagnostics)
		return
	}
	guardPlan(ctx, run, m.guarded(refID, t.objects.words.resourceType), &resp.Diagnostics)
}

// planUnknownMovement plans a new object of t an argument of which is
// known only at apply: so is its ref_id, which the final plan derives
// then, and the guards judge it then. The manifest shows what is known.
func (t *moneyType[A, T, R]) planUnknownMovement(ctx context.Context, run *moneyRun, a A, resp *resource.ModifyPlanResponse) {
	m := t.plan.moves(a)
	ref := *t.plan.refID(&a)
	if ref.IsNull() {
		ref = types.StringUnknown()
	}
	setMoney(ctx, &resp.Plan, m.manifest(ref, types.BoolUnknown(), summaryWords{}), &resp.Diagnostics)
	if moneyHalted(run, t.objects.words.resourceType, "", &resp.Diagnostics) ||
		checksumRefused(m.network, m.address, m.addressAttr(), t.objects.words.resourceType, "", &resp.Diagnostics) {
		return
	}
	if m.standing {
		guardStanding(ctx, run, m, atApply(ref), t.objects.words.resourceType, "", &resp.Diagnostics)
		return
	}
	guardUnknown(ctx, run, t.objects.words.resourceType, m, &resp.Diagnostics)
}

// sendMoney is the one call that sends an object of t, for its resource
// and its action alike: a money movement passes the provider's
// withdrawal_guard first (guardSend), whatever was judged at plan; then
// its post through the core (createRun), within the declaration's send
// when it has one.
// via names what sends it in messages; recorded says the state of this
// run holds an unconfirmed attempt with refID.
func (t *moneyType[A, T, R]) sendMoney(ctx context.Context, run *moneyRun, a A, refID string, derived, recorded bool, via string) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	if t.plan.moves != nil {
		m := t.plan.moves(a)
		if moneyHalted(run, via, " at send", &diags) ||
			checksumRefused(m.network, m.address, m.addressAttr(), via, " at send", &diags) {
			return createResult[T]{}, diags
		}
		if m.standing {
			guardStanding(ctx, run, m, refID, via, " at send", &diags)
		} else {
			diags.Append(guardSend(ctx, run, m.guarded(refID, via))...)
		}
		if diags.HasError() {
			return createResult[T]{}, diags
		}
	}
	body, err := t.create.request(ctx, a, refID)
	if err != nil {
		t.invalidRequest(err, &diags)
		return createResult[T]{}, diags
	}
	post := func(ctx context.Context, body R, lastErr *error) (createResult[T], diag.Diagnostics) {
		return createRun[T]{
			objects:  t.objects,
			refID:    refID,
			derived:  derived,
			recorded: recorded,
			window:   run.recoveryWindow,
			now:      run.clock(),
			send: func(ctx context.Context) (T, error) {
				obj, err := t.create.post(ctx, run.client, body)
				if lastErr != nil {
					*lastErr = err
				}
				return obj, err
			},
			existing:    t.create.existing,
			differences: func(obj T) []string { return t.create.differences(body, obj) },
			lookupFirst: t.create.lookupFirst,
			runState:    run,
		}.run(ctx)
	}
	var res createResult[T]
	var d diag.Diagnostics
	if t.create.send != nil {
		res, d = t.create.send(ctx, run, a, body, post)
	} else {
		res, d = post(ctx, body, nil)
	}
	diags.Append(d...)
	return res, diags
}

// corePost sends the create request body through the core and sorts its
// answer (see createRun.run); lastErr, when given, receives the error of
// the send.
type corePost[R, T any] func(ctx context.Context, body R, lastErr *error) (createResult[T], diag.Diagnostics)
