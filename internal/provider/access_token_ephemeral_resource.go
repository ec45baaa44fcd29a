package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ ephemeral.EphemeralResource              = (*accessTokenEphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*accessTokenEphemeralResource)(nil)
)

// NewAccessTokenEphemeralResource is the constructor of the
// platform_access_token ephemeral resource.
func NewAccessTokenEphemeralResource() ephemeral.EphemeralResource {
	return &accessTokenEphemeralResource{}
}

// accessTokenEphemeralResource hands out an OAuth 2.0 access token of the
// provider's client for a given scope set. Being ephemeral, the token is
// never written to the plan or the state.
type accessTokenEphemeralResource struct {
	data *providerData
}

// accessTokenModel is the configuration and result of platform_access_token.
type accessTokenModel struct {
	Scopes        types.List        `tfsdk:"scopes"`
	AccessToken   types.String      `tfsdk:"access_token"`
	TokenType     types.String      `tfsdk:"token_type"`
	ExpiresAt     timetypes.RFC3339 `tfsdk:"expires_at"`
	GrantedScopes types.List        `tfsdk:"granted_scopes"`
}

func (r *accessTokenEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_access_token"
}

func (r *accessTokenEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A short-lived OAuth 2.0 access token of the provider's client (client credentials " +
			"grant), for exactly the `scopes` given, to hand to something else that calls the service: another " +
			"provider's ephemeral or write-only argument, a provisioner, a provider block.\n\n" +
			"As an ephemeral resource (Terraform 1.10 and later) it is never written to the plan or the state. " +
			"It is requested when Terraform needs it, in every plan and apply that uses it, and always has at " +
			"least " + durationWords(client.TokenMinValidity) + " left before `expires_at`; tokens are cached per " +
			"scope set within one provider run. The provider's own `scopes` argument does not apply here: the " +
			"token carries exactly the scopes asked for, and the client credentials must be allowed them.",
		Attributes: map[string]schema.Attribute{
			"scopes": schema.ListAttribute{
				MarkdownDescription: "OAuth scopes the token must carry, for example `[\"" +
					client.ScopeReadFiatAccount + "\"]`. At least one; each non-empty, without whitespace, " +
					"and listed once. They are requested as one space-separated `scope` value.",
				ElementType: types.StringType,
				Required:    true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.NoNullValues(),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(
						stringvalidator.LengthAtLeast(1),
						stringvalidator.RegexMatches(regexp.MustCompile(`^\S+$`), "must not contain whitespace"),
					),
				},
			},
			"access_token": schema.StringAttribute{
				MarkdownDescription: "The bearer access token. Sensitive; send it as `Authorization: Bearer <token>`.",
				Computed:            true,
				Sensitive:           true,
			},
			"token_type": schema.StringAttribute{
				MarkdownDescription: "Token type the authorization server answered, normally `Bearer`.",
				Computed:            true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the token expires (RFC 3339, UTC), from the server's `expires_in`; " +
					"null when the server gave no lifetime.",
				CustomType: timetypes.RFC3339Type{},
				Computed:   true,
			},
			"granted_scopes": schema.ListAttribute{
				MarkdownDescription: "Scopes the authorization server granted (its `scope` answer), or the " +
					"requested `scopes` when it did not say.",
				ElementType: types.StringType,
				Computed:    true,
			},
		},
	}
}

func (r *accessTokenEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *accessTokenEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	m, ok := configuredArgs[accessTokenModel](ctx, r.data != nil, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	var scopes []string
	resp.Diagnostics.Append(m.Scopes.ElementsAs(ctx, &scopes, false)...)
	if resp.Diagnostics.HasError() {
		return
	}

	tok, err := r.data.client.TokenInfo(ctx, scopes)
	if err != nil {
		summary, detail := accessTokenError(err, scopes)
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, tok.AccessToken)
	ctx = tflog.MaskMessageStrings(ctx, tok.AccessToken)

	m.AccessToken = types.StringValue(tok.AccessToken)
	m.TokenType = types.StringValue(tok.TokenType)
	m.ExpiresAt = timetypes.NewRFC3339Null()
	fields := map[string]any{"scopes": strings.Join(scopes, " ")}
	if !tok.Expiry.IsZero() {
		m.ExpiresAt = timetypes.NewRFC3339TimeValue(tok.Expiry.UTC().Truncate(time.Second))
		fields["expires_at"] = tok.Expiry.UTC().Format(time.RFC3339)
	}
	granted, diags := types.ListValueFrom(ctx, types.StringType, tok.Scopes)
	resp.Diagnostics.Append(diags...)
	m.GrantedScopes = granted
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Debug(ctx, "access token opened", fields)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// accessTokenError is the diagnostic of a failed token request. err never
// carries the client secret (the client scrubs it).
func accessTokenError(err error, scopes []string) (summary, detail string) {
	scope := strings.Join(scopes, " ")
	switch {
	case errors.Is(err, client.ErrUnauthorized):
		return "Authentication failed",
			fmt.Sprintf("The authorization server refused the client credentials when asked for a token with "+
				"scopes %q: %s.\n\nCheck the provider's client_id and client_secret (or %s and %s).",
				scope, err, EnvClientID, EnvClientSecret)
	case errors.Is(err, client.ErrValidation), errors.Is(err, client.ErrForbidden):
		return "Access token refused for these scopes",
			fmt.Sprintf("The authorization server did not issue a token with scopes %q: %s.\n\n"+
				"Ask only for scopes the client credentials are allowed, spelled as the service names them "+
				"(for example %q).", scope, err, client.ScopeReadFiatAccount)
	default:
		return "Could not obtain an access token",
			fmt.Sprintf("Requesting a token with scopes %q failed: %s.\n\nCheck the provider's auth_url (or %s) "+
				"and that the authorization server is reachable.", scope, err, EnvAuthURL)
	}
}

// durationWords writes d for a description: "one minute", "5 minutes", or
// Go's notation for anything else.
func durationWords(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "one minute"
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	default:
		return d.String()
	}
}
