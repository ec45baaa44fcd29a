package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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

// configuredArgs reads config into an M once the provider is configured
// (configured): ok is false, with diags saying why, when it is not or when
// config cannot be read.
func configuredArgs[M any](ctx context.Context, configured bool, config tfsdk.Config, diags *diag.Diagnostics) (m M, ok bool) {
	if !configured {
		notConfigured(diags)
		return m, false
	}
	diags.Append(config.Get(ctx, &m)...)
	return m, !diags.HasError()
}

// providerData is what resources and data sources receive from Configure:
// the client and the connection settings of this configuration of the
// provider, and the run of its money engine.
type providerData struct {
	client *client.Client
	// wsURL is empty when ws_url is not configured.
	wsURL string
	// requestTimeout bounds stream operations that have no timeout of their own.
	requestTimeout time.Duration
	// streams is the stream connection shared by the market-data reads of
	// this configuration of the provider, that is of the provider process
	// (see market_data_hub.go); nil opens one for each read.
	streams *stream.Hub
	// run is what the money engine remembers while this configuration
	// plans or applies (money_run.go).
	run *moneyRun
}

// configuredRun is the run of the provider's data, for the Configure of
// a resource or action of the money engine: nil (without error) while the
// provider is not configured yet.
// engineRun is the money engine's run of d; nil when d is nil.
func (d *providerData) engineRun() *moneyRun {
	if d == nil {
		return nil
	}
	return d.run
}

func configuredRun(raw any, diags *diag.Diagnostics) *moneyRun {
	if d := configuredData(raw, diags); d != nil {
		return d.run
	}
	return nil
}
