package provider

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// moneyRun is what the money engine remembers while one configuration of
// the provider (one plan, or one apply) moves money: the ref_ids its
// creates claim, the unconfirmed attempts its state records, its lookups
// and gathered reads, the statuses it saw, the warnings it gave, the
// withdrawal guard and its tally, and the fiat accounts it read to name
// them. Configure builds it, and the provider's data hands it to the
// resources and actions of the engine, whose code takes it in place of
// the provider's data.
type moneyRun struct {
	// client is the configuration's client, through which the engine
	// sends and reads.
	client *client.Client
	// newID generates ref_ids; now is the machine's clock (see clock).
	// Tests replace them.
	newID func() string
	now   func() time.Time
	// recoveryWindow is how long after it was made an object found under a
	// derived ref_id is taken for the one a run that did not record its
	// answer made (recovery_window).
	recoveryWindow time.Duration
	// planned are the ref_ids the creates of this plan or apply send (see
	// money_core.go).
	planned plannedRefIDs
	// attempts are the unconfirmed creates the state of this run records,
	// and lookups the ref_ids looked up at plan (see money_core.go).
	attempts attemptSet
	lookups  lookupCache
	// warned holds the warnings given once per run, by key.
	warned sync.Map
	// statuses are the statuses of the objects this run created, read
	// or imported, by ref_id namespace and id (see seenStatus).
	statuses sync.Map
	// guard is the withdrawal_guard of this run (money_guard.go).
	guard *moneyGuard
	// fiatNames are the fiat accounts read to name them in money
	// summaries (fiat_account_names.go).
	fiatNames fiatAccountDirectory
}

// sawStatus records the status of the object objectID of namespace, as
// this run last created, read or imported it.
func (run *moneyRun) sawStatus(namespace, objectID, status string) {
	if run != nil && objectID != "" {
		run.statuses.Store(namespace+"\x00"+objectID, status)
	}
}

// seenStatus is the status of the object objectID of namespace as this
// run last saw it; false when it saw none.
func (run *moneyRun) seenStatus(namespace, objectID string) (string, bool) {
	v, ok := run.statuses.Load(namespace + "\x00" + objectID)
	s, _ := v.(string)
	return s, ok
}

// warnOnce runs add the first time key is given in this run.
func (run *moneyRun) warnOnce(key string, add func()) {
	if _, done := run.warned.LoadOrStore(key, true); !done {
		add()
	}
}

// clock is the machine's clock of run (tests replace it).
func (run *moneyRun) clock() func() time.Time {
	if run.now != nil {
		return run.now
	}
	return time.Now
}

// pinnedScopeRefused refuses at plan a change of what (a resource type or
// an action) that needs scope, when the provider's scopes argument pins a
// list without it: the apply could not make it. It reports whether it did.
func (run *moneyRun) pinnedScopeRefused(scope, what string, diags *diag.Diagnostics) bool {
	if run == nil || run.client == nil || scope == "" {
		return false
	}
	pinned := run.client.PinnedScopes()
	if len(pinned) == 0 || slices.Contains(pinned, scope) {
		return false
	}
	diags.AddError(pinnedScopesLack+" "+scope,
		fmt.Sprintf("The provider's scopes argument (or PLATFORM_SCOPES) pins every access token to %q, which "+
			"lacks %s: applying this plan could not make the %s it plans, and would fail at that step.\n\n"+
			"Add %s to scopes, or leave scopes unset so that each operation asks for the scope it needs, and "+
			"plan again. Nothing was sent.", strings.Join(pinned, " "), scope, what, scope))
	return true
}
