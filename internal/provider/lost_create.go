package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// A create without a ref_id whose answer was lost: a profile (found again
// by its nickname) and an entry of the address book (by its tuple). The
// service cannot say which request made an object, so an object found
// under the same name after the lost answer is the attempt's own only
// with evidence: it holds what the attempt sent, the service made it after
// the attempt started, and nothing else could be it. Anything else is
// refused, naming the object and the import that adopts it on purpose.
//
// The attempt is recorded in the object's private state before the
// request is sent (lostCreate.record), so that the unconfirmed state the
// create leaves carries it; the refresh of that state (at plan) and its
// destroy before the retry (at apply) hand it to the run (attemptSet),
// where the plan and the create of the retry judge what they find
// (lostCreate.missing).

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
