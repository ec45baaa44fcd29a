package bypass

import (
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// DefaultMemoryLimit is the soft memory limit of the provider process
// (runtime/debug.SetMemoryLimit) from its first list read on, when
// GOMEMLIMIT does not set one.
//
// A list data source writes its state in compressed chunks and joins them
// into the one buffer the protocol carries (under Terraform, gRPC copies
// that buffer again). Without a limit the garbage collector lets the heap
// grow to twice what is live before it runs, so the pages decoded on the
// way stay resident. With this limit the collector runs as soon as the
// heap passes it: 100,000 items of any list are read in about 100 MiB
// (`make bench`, figure 5).
//
// The limit is set by the first list read (LimitMemoryForLists), not at
// start: a process that plans many resources holds little at a time but
// allocates a lot, and under the limit its collector would run more often
// than it needs to. Terraform starts a provider process for each phase of
// a run, so a plan of resources alone never runs under the limit.
const DefaultMemoryLimit = 32 << 20

var listMemoryLimit sync.Once

// LimitMemoryForLists sets the soft memory limit of the process, unless
// GOMEMLIMIT sets one; every list read calls it first (ReadList does, and
// so do the provider's list resources). The limit then
// stays: gRPC copies the state after the read returns, and reads of a
// process often overlap.
func LimitMemoryForLists() {
	listMemoryLimit.Do(func() {
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(DefaultMemoryLimit)
		}
	})
}

// TuneRuntime sets the process-wide settings of the provider process: its
// logs are off unless Terraform's environment asks for them
// (quietUnrequestedLogs), and its gRPC server sends a large state from the
// provider's own buffer (useStateCodec). main calls it once, before
// serving, unless the provider runs under a debugger.
func TuneRuntime() {
	quietUnrequestedLogs()
	useStateCodec()
	collectLessOften()
}

// planGCPercent is the garbage collector's target of the provider
// process (runtime/debug.SetGCPercent), when GOGC does not set one.
const planGCPercent = 400

// collectLessOften lets the heap grow to planGCPercent percent above what
// is live before the collector runs, unless GOGC says otherwise.
//
// A plan asks the provider process to validate, upgrade, read and plan
// every resource in state, and each of these allocates and drops its
// values at once: what is live stays small (a few MiB) while the process
// allocates hundreds. With the default (100) the collector ran every few
// MiB; at 400 it runs a quarter as often, and the heap stays within a few
// times what is live. A list read bounds the heap itself
// (LimitMemoryForLists): the soft memory limit holds whatever the target.
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(planGCPercent)
	}
}

// logVariables are the environment variables that ask for the logs of a
// provider process (Terraform passes its environment to the provider).
var logVariables = []string{
	"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_PLATFORM",
	"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_PROTO_DATA_DIR",
}

// quietUnrequestedLogs turns the logs of the provider process off when
// none of logVariables is set.
//
// terraform-plugin-go and the framework log every RPC at TRACE unless
// told otherwise, and write each line to Terraform as JSON, which
// Terraform parses and, without TF_LOG or TF_LOG_PROVIDER, throws away.
// For a plan of many resources that was about half the CPU of the
// provider and of Terraform together (`make bench`, figure 7). With
// TF_LOG or any of the others set, nothing changes.
func quietUnrequestedLogs() {
	for _, v := range logVariables {
		if os.Getenv(v) != "" {
			return
		}
	}
	// The root logger of the SDK (protocol and framework) and the
	// provider's own logger; terraform-plugin-go reads them at each RPC.
	_ = os.Setenv("TF_LOG_SDK", "off")
	_ = os.Setenv("TF_LOG_PROVIDER_PLATFORM", "off")
}

// ProviderLogsOff reports whether the provider's own logger is off
// (TF_LOG_PROVIDER_PLATFORM=off, as quietUnrequestedLogs sets it): then
// its API client logs nothing.
func ProviderLogsOff() bool {
	return strings.EqualFold(strings.TrimSpace(os.Getenv("TF_LOG_PROVIDER_PLATFORM")), "off")
}
