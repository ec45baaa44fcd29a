package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/stream"
)

// tflogLogger routes the client's logs to tflog, masking the client secret
// in case any message or field ever carried it.
type tflogLogger struct {
	secret string
}

func (l tflogLogger) Log(ctx context.Context, level client.Level, msg string, fields map[string]any) {
	if l.secret != "" {
		ctx = tflog.MaskAllFieldValuesStrings(ctx, l.secret)
		ctx = tflog.MaskMessageStrings(ctx, l.secret)
	}
	ctx = tflog.SetField(ctx, "component", "platform-client")
	switch level {
	case client.LevelTrace:
		tflog.Trace(ctx, msg, fields)
	case client.LevelDebug:
		tflog.Debug(ctx, msg, fields)
	case client.LevelWarn:
		tflog.Warn(ctx, msg, fields)
	case client.LevelError:
		tflog.Error(ctx, msg, fields)
	default:
		tflog.Info(ctx, msg, fields)
	}
}

// configuredData extracts the provider's data in a resource's, data
// source's or action's Configure. It returns nil (without error) while the
// provider is not configured yet.
func configuredData(raw any, diags *diag.Diagnostics) *providerData {
	if raw == nil {
		return nil
	}
	d, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return d
}

// notConfigured reports a call made before the provider was configured.
func notConfigured(diags *diag.Diagnostics) {
	diags.AddError("Provider not configured",
		"The platform provider has not been configured. Check the provider block and its environment variables.")
}

// providerData is what resources and data sources receive from Configure.
type providerData struct {
	client *client.Client
	// wsURL is empty when ws_url is not configured.
	wsURL string
	// requestTimeout bounds stream operations that have no timeout of their own.
	requestTimeout time.Duration
	newID          func() string
	now            func() time.Time
	// planned are the ref_ids the creates of this plan or apply send (see
	// money_core.go).
	planned *plannedRefIDs
	// recoveryWindow is how long after it was made an object found under a
	// derived ref_id is taken for the one a run that did not record its
	// answer made (recovery_window).
	recoveryWindow time.Duration
	// attempts are the unconfirmed creates the state of this run records,
	// and lookups the ref_ids looked up at plan (see money_core.go).
	attempts attemptSet
	lookups  lookupCache
	// warned holds the warnings given once per run, by key.
	warned sync.Map
	// streams is the stream connection shared by the market-data reads of
	// this configuration of the provider, that is of the provider process
	// (see market_data_hub.go); nil opens one for each read.
	streams *stream.Hub
	// guard is the withdrawal_guard of this process (money_guard.go).
	guard *moneyGuard
	// statuses are the statuses of the objects this process created, read
	// or imported, by ref_id namespace and id (see seenStatus).
	statuses sync.Map
	// fiatNames are the fiat accounts read to name them in money
	// summaries (fiat_account_names.go).
	fiatNames fiatAccountDirectory
}

// sawStatus records the status of the object id of namespace, as this
// process last created, read or imported it.
func (d *providerData) sawStatus(namespace, id, status string) {
	if d != nil && id != "" {
		d.statuses.Store(namespace+"\x00"+id, status)
	}
}

// seenStatus is the status of the object id of namespace as this process
// last saw it; false when it saw none.
func (d *providerData) seenStatus(namespace, id string) (string, bool) {
	v, ok := d.statuses.Load(namespace + "\x00" + id)
	s, _ := v.(string)
	return s, ok
}

// warnOnce runs add the first time key is given in this run.
func (d *providerData) warnOnce(key string, add func()) {
	if _, done := d.warned.LoadOrStore(key, true); !done {
		add()
	}
}

// clock is the machine's clock of d (tests replace it).
func (d *providerData) clock() func() time.Time {
	if d.now != nil {
		return d.now
	}
	return time.Now
}

// pinnedScopeRefused refuses at plan a change of what (a resource type or
// an action) that needs scope, when the provider's scopes argument pins a
// list without it: the apply could not make it. It reports whether it did.
func (d *providerData) pinnedScopeRefused(scope, what string, diags *diag.Diagnostics) bool {
	if d == nil || d.client == nil || scope == "" {
		return false
	}
	pinned := d.client.PinnedScopes()
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
