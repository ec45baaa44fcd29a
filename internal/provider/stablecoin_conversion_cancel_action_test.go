package provider

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// TestStablecoinConversionCancel_statusChecked: the cancel action reports
// a cancellation only when the service answers the status CANCELLED; an
// answer of another status (SETTLED) is an error that says so.
func TestStablecoinConversionCancel_statusChecked(t *testing.T) {
	for _, answered := range []string{"CANCELLED", "SETTLED"} {
		t.Run(answered, func(t *testing.T) {
			fe := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				if r.Method != http.MethodDelete {
					next.ServeHTTP(w, r)
					return
				}
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(rec.Code)
				_, _ = w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(`"status":"CANCELLED"`),
					[]byte(`"status":"`+answered+`"`)))
			})
			c, err := client.New(client.Config{RateStateDir: t.TempDir(), ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
				BaseURL: fe.srv.URL + "/v2", AuthURL: fe.srv.URL, MaxRetries: 0})
			if err != nil {
				t.Fatal(err)
			}
			made, err := c.CreateStablecoinConversion(t.Context(), client.StablecoinConversionRequest{ProfileID: "prof-1",
				SourceAsset: "USD", TargetAsset: "USDC", Amount: "10", RefID: "to-cancel"})
			if err != nil {
				t.Fatal(err)
			}
			a := &stablecoinConversionCancelAction{data: &providerData{client: c}}
			var s action.SchemaResponse
			a.Schema(t.Context(), action.SchemaRequest{}, &s)
			cfg := tfsdk.Config{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(t.Context()),
				map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, deref(made.ID))})}
			var progress []string
			resp := &action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) {
				progress = append(progress, e.Message)
			}}
			a.Invoke(t.Context(), action.InvokeRequest{Config: cfg}, resp)
			said := strings.Join(progress, "\n")
			switch answered {
			case "CANCELLED":
				if resp.Diagnostics.HasError() || !strings.Contains(said, "status CANCELLED") {
					t.Errorf("a cancelled conversion: %v, progress %q", resp.Diagnostics, said)
				}
			default:
				want := fmt.Sprintf("with the status \"%s\", not CANCELLED", answered)
				if !resp.Diagnostics.HasError() || !strings.Contains(flatOutput(fmt.Sprint(resp.Diagnostics)), want) {
					t.Errorf("an answer of status %s: %v, want an error saying %q", answered, resp.Diagnostics, want)
				}
				if strings.Contains(said, "status "+answered) {
					t.Errorf("the answer of status %s is reported as a cancellation: %q", answered, said)
				}
			}
		})
	}
}
