package provider

import (
	"os"
	"runtime/debug"
)

// DefaultMemoryLimit is the soft memory limit of the provider process
// (runtime/debug.SetMemoryLimit) when GOMEMLIMIT does not set one.
//
// A list data source writes its state in compressed chunks and joins them
// into the one buffer the protocol carries (under Terraform, gRPC copies
// that buffer again). Without a limit the garbage collector lets the heap
// grow to twice what is live before it runs, so the pages decoded on the
// way stay resident. With this limit the collector runs as soon as the
// heap passes it: 100,000 items of any list are read in about 100 MiB
// (`make bench`, figure 5). A process that holds less than this, which is
// every run without a large list, sees no change.
const DefaultMemoryLimit = 32 << 20

// TuneRuntime sets the process-wide runtime settings of the provider
// process: the soft memory limit, unless the GOMEMLIMIT environment
// variable sets one. main calls it once, before serving.
func TuneRuntime() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(DefaultMemoryLimit)
	}
}
