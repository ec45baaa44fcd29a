package bypass

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestEquivalenceQuietUnrequestedLogs checks that the logs of the provider process
// are turned off only when no variable asks for them, and that a variable
// that does leaves every setting as it was.
func TestEquivalenceQuietUnrequestedLogs(t *testing.T) {
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
			if got := ProviderLogsOff(); got != (asked == "") {
				t.Errorf("ProviderLogsOff() = %v", got)
			}
		})
	}
}

// TestEquivalenceMemoryLimitForLists checks that the first list read sets
// the soft memory limit, unless GOMEMLIMIT sets one.
func TestEquivalenceMemoryLimitForLists(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	LimitMemoryForLists()
	want := int64(DefaultMemoryLimit)
	if os.Getenv("GOMEMLIMIT") != "" {
		want = before
	}
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("memory limit %d, want %d", got, want)
	}
}

// TestEquivalenceCollectLessOften checks that the provider process's
// collector target is planGCPercent, unless GOGC sets one.
func TestEquivalenceCollectLessOften(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	for _, gogc := range []string{"", "150"} {
		t.Setenv("GOGC", gogc)
		debug.SetGCPercent(100)
		collectLessOften()
		want := planGCPercent
		if gogc != "" {
			want = 100
		}
		if got := debug.SetGCPercent(100); got != want {
			t.Errorf("GOGC=%q: the collector's target %d, want %d", gogc, got, want)
		}
	}
}
