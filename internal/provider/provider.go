// Package provider implements the platform Terraform provider.
package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

const (
	// defaultRecoveryWindow and maxRecoveryWindow bound recovery_window.
	defaultRecoveryWindow = time.Hour
	maxRecoveryWindow     = 24 * time.Hour

	defaultRequestTimeout = 30 * time.Second
	defaultMaxRetries     = 4
	maxMaxRetries         = 10
)

var (
	_ provider.Provider                       = (*platformProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*platformProvider)(nil)
	_ provider.ProviderWithActions            = (*platformProvider)(nil)
	_ provider.ProviderWithListResources      = (*platformProvider)(nil)
)

// platformProvider is the platform provider.
type platformProvider struct {
	version string
	// newID generates ref_ids; tests replace it.
	newID func() string
	// now is the clock; tests replace it.
	now func() time.Time
	// retryWaitMin/Max bound the client's backoff; tests shorten them.
	retryWaitMin, retryWaitMax time.Duration
	// rates replace the published rate limits; tests raise them.
	rates *client.RateTable
}

// New returns a constructor of the provider for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &platformProvider{version: version, newID: uuid.NewString, now: time.Now, rates: builtRates()}
	}
}

// rateScale multiplies the published rates the provider paces to. It is
// empty in every release; the acceptance tests build the binary they run
// under Terraform with it set (-ldflags -X), so that the emulator of a
// test, which counts no requests, costs the suite no waits.
var rateScale string

// rateWindow is the window the provider paces over (a Go duration). It is
// empty in every release (the published 5 minutes); the tests that run
// the emulator enforcing the limits over a shorter window build the
// binary with that window.
var rateWindow string

// builtRates are the rates of a binary built with rateScale or
// rateWindow, or nil: the published ones.
func builtRates() *client.RateTable {
	r := client.PublishedRates
	n, err := strconv.ParseFloat(rateScale, 64)
	scaled := err == nil && n > 1
	if scaled {
		r = r.Scaled(n)
	}
	w, err := time.ParseDuration(rateWindow)
	windowed := err == nil && w > 0
	if windowed {
		r.Window = w
	}
	if !scaled && !windowed {
		return nil
	}
	return &r
}

// providerModel is the provider configuration.
type providerModel struct {
	ClientID       types.String         `tfsdk:"client_id"`
	ClientSecret   types.String         `tfsdk:"client_secret"`
	BaseURL        types.String         `tfsdk:"base_url"`
	AuthURL        types.String         `tfsdk:"auth_url"`
	WSURL          types.String         `tfsdk:"ws_url"`
	Scopes         types.List           `tfsdk:"scopes"`
	RequestTimeout timetypes.GoDuration `tfsdk:"request_timeout"`
	MaxRetries     types.Int64          `tfsdk:"max_retries"`
	RecoveryWindow timetypes.GoDuration `tfsdk:"recovery_window"`
	RateBudget     types.Float64        `tfsdk:"rate_budget"`
	RateStateDir   types.String         `tfsdk:"rate_state_dir"`
	RateStore      types.String         `tfsdk:"rate_store"`
	// WithdrawalGuard is the withdrawal_guard block (money_guard.go).
	WithdrawalGuard types.Object `tfsdk:"withdrawal_guard"`
}

func (p *platformProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "platform"
	resp.Version = p.version
}

func (p *platformProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The platform provider manages money movement on the service: crypto and fiat " +
			"withdrawals, internal transfers and stablecoin conversions (each a resource and an action) under guard " +
			"rails, fiat deposit instructions, fiat accounts, crypto deposit " +
			"addresses and the withdrawal address book; it reads transfers, reward claims, stablecoin " +
			"conversions and market data. Every argument can also be set through its `PLATFORM_*` " +
			"environment variable.",
		Blocks: map[string]schema.Block{withdrawalGuardBlock: moneyGuardSchema()},
		Attributes: map[string]schema.Attribute{
			"client_id": schema.StringAttribute{
				MarkdownDescription: "OAuth 2.0 client id. Environment variable `" + EnvClientID + "`.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"client_secret": schema.StringAttribute{
				MarkdownDescription: "OAuth 2.0 client secret. Environment variable `" + EnvClientSecret + "`. " +
					"Never written to state, plan or logs.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Base URL of the HTTP API, including the `/v2` version segment, for example " +
					"`https://api.example.com/v2`. Environment variable `" + EnvBaseURL + "`. Must be `https://` " +
					"unless the host is loopback, without a query string or fragment. Its path must be `/v2` (a " +
					"trailing slash is allowed; behind a gateway, a prefix before it too): any other address is " +
					"refused when the provider is configured, before any request.",
				Optional: true,
			},
			"auth_url": schema.StringAttribute{
				MarkdownDescription: "Base URL of the OAuth 2.0 server; tokens are requested from " +
					"`{auth_url}/oauth2/token`. Environment variable `" + EnvAuthURL + "`. Must be `https://` " +
					"unless the host is loopback.",
				Optional: true,
			},
			"ws_url": schema.StringAttribute{
				MarkdownDescription: "URL of the WebSocket market-data stream. Environment variable `" + EnvWSURL +
					"`. Needed only by the market-data data sources. Must be `wss://` unless the host is loopback.",
				Optional: true,
			},
			"scopes": schema.ListAttribute{
				ElementType: types.StringType,
				MarkdownDescription: "Pins one access token with exactly these scopes for every operation. " +
					"By default (unset) each operation requests a token with only the scope it needs " +
					"(least privilege), one cached token per scope. A plan that creates an object, or invokes an " +
					"action, whose scope the list lacks fails at plan, once per scope lacking, with nothing sent. " +
					"Environment variable `" + EnvScopes + "` (space- or comma-separated).",
				Optional: true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.NoNullValues(),
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
					listvalidator.UniqueValues(),
				},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: "Timeout of one HTTP attempt, as a Go duration such as `30s` or `1m`. " +
					"Default `30s`. Environment variable `" + EnvRequestTimeout + "`.",
				Optional:   true,
				CustomType: timetypes.GoDurationType{},
				Validators: []validator.String{durationValidator{positive: true}},
			},
			"recovery_window": schema.StringAttribute{
				MarkdownDescription: "How recent, by the service's clock, an object that the service already holds " +
					"under a `ref_id` derived from a new resource's arguments must be to be taken for the one a run " +
					"killed before it recorded the answer made, as a Go duration such as `1h` or `30m`. An older one " +
					"is another object that happens to have the same arguments (the same payment declared again): " +
					"the plan stops and names it, and nothing is sent. An attempt the state recorded (an unconfirmed " +
					"create) is recognised at any age. Default `1h`, at most `24h`; `0s` recognises only recorded " +
					"attempts. A configured `ref_id` is never judged by age. Environment variable `" +
					EnvRecoveryWindow + "`.",
				Optional:   true,
				CustomType: timetypes.GoDurationType{},
				Validators: []validator.String{durationValidator{nonNegative: true, max: maxRecoveryWindow}},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a failed request that is safe to repeat (a read, "+
					"or a create carrying its `ref_id`) is retried on 429, 5xx and network errors, with "+
					"exponential backoff honouring `Retry-After` (at most 5 minutes a wait, and at most 10 minutes of "+
					"waiting in all for one request, whatever the count). Default `%d`, at most %d. Environment "+
					"variable `%s`.",
					defaultMaxRetries, maxMaxRetries, EnvMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, maxMaxRetries)},
			},
		},
	}
	maps.Copy(resp.Schema.Attributes, rateSchema())
}

func (p *platformProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	diags := &resp.Diagnostics
	cfg, wsURL := client.Config{}, ""
	// Every string argument falls back to its environment variable.
	settings := []stringSetting{
		{attr: "client_id", env: EnvClientID, value: m.ClientID, dst: &cfg.ClientID, required: "an OAuth 2.0 client id"},
		{attr: "client_secret", env: EnvClientSecret, value: m.ClientSecret, dst: &cfg.ClientSecret,
			required: "an OAuth 2.0 client secret"},
		{attr: "base_url", env: EnvBaseURL, value: m.BaseURL, dst: &cfg.BaseURL,
			required: "the base URL of the HTTP API", schemes: []string{"https", "http"}, version: apiVersionSegment},
		{attr: "auth_url", env: EnvAuthURL, value: m.AuthURL, dst: &cfg.AuthURL,
			required: "the base URL of the OAuth 2.0 server", schemes: []string{"https", "http"}},
		{attr: "ws_url", env: EnvWSURL, value: m.WSURL, dst: &wsURL, schemes: []string{"wss", "ws"}},
		{attr: "rate_state_dir", env: EnvRateStateDir, value: m.RateStateDir, dst: &cfg.RateStateDir},
		{attr: "rate_store", env: EnvRateStore, value: m.RateStore, dst: &cfg.RateStore},
	}
	for _, s := range settings {
		s.read(diags)
	}
	if diags.HasError() {
		return
	}
	for _, s := range settings {
		s.require(diags)
		s.check(diags)
	}
	cfg.Scopes = configScopes(ctx, m.Scopes, diags)
	cfg.RequestTimeout = configRequestTimeout(stringSetting{attr: "request_timeout", env: EnvRequestTimeout, value: m.RequestTimeout.StringValue}, diags)
	cfg.MaxRetries = configMaxRetries(m.MaxRetries, diags)
	cfg.RateBudget, cfg.Rates = configRateBudget(m.RateBudget, diags), p.rates
	configRateStore(cfg.RateStore, diags)
	recoveryWindow := configRecoveryWindow(stringSetting{attr: "recovery_window", env: EnvRecoveryWindow,
		value: m.RecoveryWindow.StringValue}, diags)
	guard := configMoneyGuard(ctx, m.WithdrawalGuard, diags)
	if diags.HasError() {
		return
	}

	cfg.UserAgent = "terraform-provider-platform/" + p.version
	cfg.RetryWaitMin, cfg.RetryWaitMax = p.retryWaitMin, p.retryWaitMax
	if !bypass.ProviderLogsOff() {
		// Off, the client skips building and scrubbing its log entries.
		cfg.Logger = tflogLogger{secret: cfg.ClientSecret}
	}

	c, err := client.New(cfg)
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return
	}
	tflog.Debug(ctx, "platform provider configured", map[string]any{
		"base_url": cfg.BaseURL, "auth_url": cfg.AuthURL, "ws_url": wsURL, "pinned_scopes": cfg.Scopes,
		"request_timeout": cfg.RequestTimeout.String(), "max_retries": cfg.MaxRetries,
		"rate_budget": cfg.RateBudget, "rate_state_dir": cfg.RateStateDir, "rate_store": redactedStore(cfg.RateStore),
	})
	warnRateStore(c, diags)
	warnRateState(c, diags)

	data := &providerData{client: c, wsURL: wsURL, requestTimeout: cfg.RequestTimeout,
		run: &moneyRun{client: c, newID: p.newID, now: p.now, recoveryWindow: recoveryWindow, guard: guard}}
	if wsURL != "" {
		data.streams = newStreamHub(wsURL, c)
	}
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
	offerConfigured(ctx, data)
}

// stringSetting is a string argument of the provider block with its
// environment variable fallback.
type stringSetting struct {
	attr, env string
	value     types.String
	dst       *string
	// required, when set, says what a missing value is ("an OAuth 2.0
	// client id").
	required string
	// schemes, when set, makes the value a URL with one of these schemes.
	schemes []string
	// version, when set, is the last segment the URL's path must have:
	// the API's version.
	version string
}

// apiVersionSegment is the version of the API that base_url addresses: its
// path is /v2 (or ends in /v2, behind a gateway that adds a prefix).
const apiVersionSegment = "v2"

// raw is the configured value, or the environment variable's when the
// argument is unset.
func (s stringSetting) raw(diags *diag.Diagnostics) string {
	if s.value.IsUnknown() {
		diags.AddAttributeError(path.Root(s.attr), "Unknown provider configuration value",
			fmt.Sprintf("The value of %q is not known until apply. Set it to a value known at plan time, "+
				"or leave it unset and use the %s environment variable.", s.attr, s.env))
		return ""
	}
	if !s.value.IsNull() {
		return s.value.ValueString()
	}
	return os.Getenv(s.env)
}

// read sets *dst from the configuration or the environment (URLs without
// a trailing slash).
func (s stringSetting) read(diags *diag.Diagnostics) {
	v := s.raw(diags)
	if s.schemes != nil {
		v = strings.TrimRight(v, "/")
	}
	*s.dst = v
}

// require reports a missing required value.
func (s stringSetting) require(diags *diag.Diagnostics) {
	if *s.dst == "" && s.required != "" {
		diags.AddAttributeError(path.Root(s.attr), "Missing "+s.required,
			fmt.Sprintf("The provider needs %s. Set %q in the provider block or the %s environment variable.",
				s.required, s.attr, s.env))
	}
}

// check validates a URL setting.
func (s stringSetting) check(diags *diag.Diagnostics) {
	if s.schemes == nil || *s.dst == "" {
		return
	}
	if err := client.CheckURL(s.attr, *s.dst, s.schemes...); err != nil {
		msg := err.Error()
		var ce *client.ConfigError
		if errors.As(err, &ce) {
			msg = ce.Msg
		}
		diags.AddAttributeError(path.Root(s.attr), "Invalid "+s.attr,
			fmt.Sprintf("%s (from the provider block or %s): %s.", s.attr, s.env, strings.TrimSuffix(msg, ".")))
		return
	}
	s.checkVersion(diags)
}

// checkVersion refuses a URL whose path does not end in the segment
// s.version: every operation of the API is under it, so any other path
// answers every request with 404 (a route the service does not have).
func (s stringSetting) checkVersion(diags *diag.Diagnostics) {
	if s.version == "" {
		return
	}
	u, err := url.Parse(*s.dst)
	if err != nil {
		return
	}
	p := strings.TrimRight(u.Path, "/")
	if p == "/"+s.version || strings.HasSuffix(p, "/"+s.version) {
		return
	}
	got := fmt.Sprintf("its path is %q", p)
	if p == "" {
		got = "it has no path"
	}
	diags.AddAttributeError(path.Root(s.attr), "Invalid "+s.attr,
		fmt.Sprintf("%s (from the provider block or %s) must be the address of the API including its version "+
			"segment /%s, such as https://api.example.com/%s (a trailing slash is allowed), but %s: %s. Every "+
			"operation of the service is under /%s, so no request to this address could reach one. Set %s (or %s) "+
			"to the API's address ending in /%s.", s.attr, s.env, s.version, s.version, got, *s.dst, s.version,
			s.attr, s.env, s.version))
}

// configScopes is the scopes argument, or PLATFORM_SCOPES (comma- or
// space-separated) when it is unset.
func configScopes(ctx context.Context, v types.List, diags *diag.Diagnostics) []string {
	var out []string
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(path.Root("scopes"), "Unknown provider configuration value",
			"The value of \"scopes\" is not known until apply. Set it to a value known at plan time.")
	case !v.IsNull():
		diags.Append(v.ElementsAs(ctx, &out, false)...)
	default:
		if env := os.Getenv(EnvScopes); env != "" {
			out = strings.FieldsFunc(env, func(r rune) bool { return r == ',' || r == ' ' })
		}
	}
	return out
}

// configRequestTimeout is the request_timeout setting, or its default.
func configRequestTimeout(s stringSetting, diags *diag.Diagnostics) time.Duration {
	raw := s.raw(diags)
	if raw == "" {
		return defaultRequestTimeout
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		diags.AddAttributeError(path.Root("request_timeout"), "Invalid request_timeout",
			fmt.Sprintf("request_timeout (from the provider block or %s) must be a positive Go duration "+
				"such as \"30s\" or \"2m\", got %q.", EnvRequestTimeout, raw))
	}
	return d
}

// configRecoveryWindow is the recovery_window setting, or its default.
func configRecoveryWindow(s stringSetting, diags *diag.Diagnostics) time.Duration {
	raw := s.raw(diags)
	if raw == "" {
		return defaultRecoveryWindow
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d < 0 || d > maxRecoveryWindow {
		diags.AddAttributeError(path.Root("recovery_window"), "Invalid recovery_window",
			fmt.Sprintf("recovery_window (from the provider block or %s) must be a Go duration from \"0s\" to %q, "+
				"such as \"1h\" or \"30m\", got %q.", EnvRecoveryWindow, "24h", raw))
		return 0
	}
	return d
}

// configMaxRetries is the max_retries argument, or PLATFORM_MAX_RETRIES,
// or its default.
func configMaxRetries(v types.Int64, diags *diag.Diagnostics) int {
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(path.Root("max_retries"), "Unknown provider configuration value",
			"The value of \"max_retries\" is not known until apply. Set it to a value known at plan time.")
	case !v.IsNull():
		return int(v.ValueInt64())
	default:
		if raw := os.Getenv(EnvMaxRetries); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 0 || n > maxMaxRetries {
				diags.AddAttributeError(path.Root("max_retries"), "Invalid max_retries",
					fmt.Sprintf("%s must be a whole number from 0 to %d, got %q.", EnvMaxRetries, maxMaxRetries, raw))
			}
			return n
		}
	}
	return defaultMaxRetries
}

func (p *platformProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewFiatDepositInstructionsResource,
		NewCryptoDestinationAddressResource,
		NewCryptoWithdrawalResource,
		NewDepositAddressResource,
		NewFiatAccountResource,
		NewFiatWithdrawalResource,
		NewInternalTransferResource,
		NewStablecoinConversionResource,
		NewOrchestrationRuleResource,
		NewProfileResource,
	}
}

func (p *platformProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewFiatDepositInstructionsDataSource,
		NewTopOfBookDataSource,
		NewOrderBookDataSource,
		NewFiatAccountsDataSource,
		NewDepositAddressesDataSource,
		NewCryptoDestinationAddressesDataSource,
		NewRewardClaimsDataSource,
		NewStablecoinConversionDataSource,
		NewTransferDataSource,
		NewTransfersDataSource,
		NewTransferLimitsDataSource,
		NewProfileBalancesDataSource,
	}
}

func (p *platformProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewAccessTokenEphemeralResource,
	}
}

func (p *platformProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewCryptoWithdrawalListResource,
		NewFiatDepositInstructionsListResource,
		NewDepositAddressListResource,
		NewCryptoDestinationAddressListResource,
		NewFiatAccountListResource,
		NewFiatWithdrawalListResource,
		NewInternalTransferListResource,
		NewOrchestrationRuleListResource,
		NewProfileListResource,
	}
}

func (p *platformProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewCryptoWithdrawalAction,
		NewFiatWithdrawalAction,
		NewInternalTransferAction,
		NewStablecoinConversionAction,
		NewStablecoinConversionCancelAction,
	}
}
