package provider

import (
	"os"
	"testing"
)

// TestQuietUnrequestedLogs checks that the logs of the provider process
// are turned off only when no variable asks for them, and that a variable
// that does leaves every setting as it was.
func TestQuietUnrequestedLogs(t *testing.T) {
	for _, asked := range append([]string{""}, logVariables...) {
		t.Run("asked by "+asked, func(t *testing.T) {
			for _, v := range logVariables {
				t.Setenv(v, "")
			}
			if asked != "" {
				t.Setenv(asked, "TRACE")
			}
			quietUnrequestedLogs()
			want := map[string]string{"TF_LOG_SDK": "off", "TF_LOG_PROVIDER_PLATFORM": "off"}
			if asked != "" {
				want = map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_PLATFORM": ""}
				want[asked] = "TRACE"
			}
			for v, w := range want {
				if got := os.Getenv(v); got != w {
					t.Errorf("%s = %q, want %q", v, got, w)
				}
			}
			if got := providerLogsOff(); got != (asked == "") {
				t.Errorf("providerLogsOff() = %v", got)
			}
		})
	}
}
