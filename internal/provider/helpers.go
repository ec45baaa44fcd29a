package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
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

// durationValidator checks that a string is a Go duration.
type durationValidator struct {
	positive bool
	max      time.Duration
}

var _ validator.String = durationValidator{}

func (v durationValidator) Description(_ context.Context) string {
	s := "must be a Go duration such as \"10s\" or \"1m30s\""
	if v.positive {
		s += ", greater than zero"
	}
	if v.max > 0 {
		s += ", at most " + v.max.String()
	}
	return s
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(raw)
	if err != nil || (v.positive && d <= 0) || (v.max > 0 && d > v.max) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), raw))
	}
}
