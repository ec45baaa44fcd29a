package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Creates that carry a ref_id.
//
// Both resources and the action create objects with a POST that carries a
// ref_id, the service's replay protection: it never processes two requests
// with the same ref_id. Everything that decides which ref_id a create
// sends, and what its answer means, is in this file, so that the three
// callers differ only in their words.
//
// # Which ref_id
//
// A configured ref_id is sent as it is. Otherwise the ref_id is derived
// from the request itself (derivedRefID): a name-based UUID of the request
// without its ref_id. It depends on nothing but the configuration, so every
// plan of the same declared object, the final plan Terraform makes during
// apply (in whatever order of operations), and the next run after a crash,
// a timeout or a cancelled pipeline all send the same ref_id, and nothing
// about it lives in a process's memory. Two objects of one configuration
// with the same ref_id would be one object for the service: plannedRefIDs
// refuses them at plan.
//
// # What the answer means
//
// createRun.send sends the request and sorts the answer into one of four
// outcomes:
//   - confirmed: a 2xx whose object matches the request;
//   - adopted: a 409 whose problem body carries meta.existing, the object an
//     earlier request with this ref_id made, and that object matches the
//     request: it was sent before and is not sent again;
//   - unconfirmed: no answer that says whether the service processed it (a
//     timeout, or server errors until the retries ran out): the caller
//     records what it sent and fails, and the next run retries with the same
//     ref_id;
//   - refused: everything else, with nothing sent, including an answer that
//     does not match the request (the refusal table below).

// refIDNamespace is the UUID namespace of derived ref_ids.
var refIDNamespace = uuid.MustParse("6f1c2a8e-4b7d-5e3f-9a10-2c4d6e8f0a1b")

// derivedRefID is the ref_id of a request whose configuration sets none:
// the UUID (version 5) in refIDNamespace of kind, a NUL byte and the
// canonical JSON of req (object keys sorted, no spacing), where req has no
// ref_id. ok is false when req cannot be encoded.
func derivedRefID(kind string, req any) (string, bool) {
	b, err := canonicalJSON(req)
	if err != nil {
		return "", false
	}
	return uuid.NewSHA1(refIDNamespace, append([]byte(kind+"\x00"), b...)).String(), true
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

// plannedRefIDs are the ref_ids that the objects of one plan will create
// with, by kind. A provider configuration (one plan or apply) has its own;
// safe for concurrent use.
type plannedRefIDs struct {
	mu   sync.Mutex
	seen map[string]string
}

// claim records that an object described by what plans to create with
// refID. When another object of the same kind already did, it returns that
// object's description and false.
func (p *plannedRefIDs) claim(kind, refID, what string) (string, bool) {
	if p == nil || refID == "" {
		return "", true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen == nil {
		p.seen = map[string]string{}
	}
	key := kind + "\x00" + refID
	if other, dup := p.seen[key]; dup {
		return other, false
	}
	p.seen[key] = what
	return "", true
}

// claimPlannedRefID refuses, with an error on ref_id, a create whose ref_id
// another object of the same kind in this plan also creates with.
func claimPlannedRefID(data *providerData, words createWords, refID, what string, derived bool, diags *diag.Diagnostics) {
	if data == nil {
		return
	}
	other, ok := data.planned.claim(words.kind, refID, what)
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

// planCreateRefID plans the ref_id of a new object, for both resources:
// the configured one (recorded in the plan's private state, see
// checkUnconfirmedOrigin), or the one derive returns, which is set in the
// plan when show is set; either is claimed against the other creates of
// the plan. what describes the object in messages.
func planCreateRefID(ctx context.Context, data *providerData, w createWords, configured types.String,
	derive func() (string, bool), what string, show bool, resp *resource.ModifyPlanResponse,
) {
	refID := knownString(configured)
	derived := refID == ""
	switch {
	case !derived:
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefIDKey, originJSON(true))...)
	default:
		var ok bool
		if refID, ok = derive(); !ok {
			return
		}
		if show {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("ref_id"), refID)...)
		}
	}
	claimPlannedRefID(data, w, refID, what, derived, &resp.Diagnostics)
}

// createWords are what differs between the callers of createRun.
type createWords struct {
	// kind names the request in derived ref_ids and in plannedRefIDs.
	kind string
	// resourceType is the Terraform type, e.g. platform_crypto_withdrawal.
	resourceType string
	// noun and plural name one object and several: "crypto withdrawal".
	noun, plural string
	// title starts a summary: "Crypto withdrawal".
	title string
	// made is what the service does with an accepted request: "sent".
	made string
	// path and scope are the create's API path and OAuth scope.
	path, scope string
}

// createOutcome is what the answer of a create means.
type createOutcome int

const (
	outcomeRefused createOutcome = iota
	outcomeConfirmed
	outcomeAdopted
	outcomeUnconfirmed
)

// createRun is one create of an object of type T.
type createRun[T any] struct {
	words createWords
	refID string
	// send sends the request with refID.
	send func(ctx context.Context) (T, error)
	// existing returns the object a 409 answer reports as made earlier with
	// refID.
	existing func(err error) (T, bool)
	// differences lists how an answered object differs from the request,
	// one "field: requested x, answered y" line each.
	differences func(T) []string
	// id is the service's id of an answered object.
	id func(T) string
	// find, when set, looks the ref_id up before sending: an object made
	// earlier with it (by a run whose answer was lost) is adopted like a
	// replay answer, and nothing is sent.
	find func(ctx context.Context) (T, bool)
}

// createResult is the outcome of a createRun.
type createResult[T any] struct {
	outcome createOutcome
	// obj is the confirmed or adopted object.
	obj T
	// err is the error of an unconfirmed create.
	err error
}

// run sends the request and sorts its answer. Diagnostics hold the
// warning of an adopted object and the error of a refused request; the
// caller explains an unconfirmed one in its own terms.
func (c createRun[T]) run(ctx context.Context) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.words
	if c.find != nil {
		if prior, ok := c.find(ctx); ok {
			return c.replayed(ctx, prior)
		}
	}
	obj, err := c.send(ctx)
	if err == nil {
		if d := c.differences(obj); len(d) > 0 {
			tflog.Error(ctx, w.noun+" answered differently from the request", map[string]any{
				"ref_id": c.refID, "id": c.id(obj), "differences": d,
			})
			diags.AddError(w.title+" answered differently from the request",
				fmt.Sprintf("The service answered the request with ref_id %s with %s %s, which differs from the "+
					"request:\n%s\n\nThe provider does not record an answer it cannot trust. Nothing will be sent "+
					"again under this ref_id: applying again sends the same ref_id, and the service answers with the "+
					"object it made, which is checked again. Check %s %s with the service before changing the "+
					"configuration.", c.refID, w.noun, c.id(obj), bulletList(d), w.noun, c.id(obj)))
			return createResult[T]{}, diags
		}
		return createResult[T]{outcome: outcomeConfirmed, obj: obj}, diags
	}
	if prior, ok := c.existing(err); ok {
		return c.replayed(ctx, prior)
	}
	if createOutcomeUnknown(err, w.path) {
		tflog.Warn(ctx, w.noun+" not confirmed", map[string]any{"ref_id": c.refID, "error": err.Error()})
		return createResult[T]{outcome: outcomeUnconfirmed, err: err}, diags
	}
	summary, detail := refusal(w, err, c.refID)
	diags.AddError(summary, detail)
	return createResult[T]{}, diags
}

// replayed sorts an object the service reports as made earlier with the
// ref_id: adopted when it is this request, refused otherwise.
func (c createRun[T]) replayed(ctx context.Context, prior T) (createResult[T], diag.Diagnostics) {
	var diags diag.Diagnostics
	w := c.words
	if d := c.differences(prior); len(d) > 0 {
		diags.AddError("ref_id "+c.refID+" already used by another "+w.noun,
			fmt.Sprintf("The service reports that ref_id %s was already used by %s %s, which is not this "+
				"request:\n%s\n\nNothing was %s, and the state does not claim otherwise. To %s this %s, give "+
				"it a ref_id of its own; if %s %s is the one you meant, change the arguments to match it, or "+
				"import it.", c.refID, w.noun, c.id(prior), bulletList(d), w.made, verbOf(w.made), w.noun,
				w.noun, c.id(prior)))
		return createResult[T]{}, diags
	}
	tflog.Info(ctx, w.noun+" made earlier with this ref_id; not made again", map[string]any{
		"ref_id": c.refID, "id": c.id(prior),
	})
	diags.AddWarning(w.title+" was "+w.made+" earlier, not "+w.made+" again",
		fmt.Sprintf("The service reports that the request with ref_id %s was already %s earlier, as %s %s "+
			"(a run that did not record its answer, or the same arguments declared again). It was not %s "+
			"again; the state now holds %s %s. To %s the same %s once more on purpose, set a new ref_id.",
			c.refID, w.made, w.noun, c.id(prior), w.made, w.noun, c.id(prior), verbOf(w.made), w.noun))
	return createResult[T]{outcome: outcomeAdopted, obj: prior}, diags
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
// answer of the service that refuses the request (a 4xx, or a failed token
// request, which means the request was never sent).
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
	return ae.Status < 400 || ae.Status >= 500
}

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
