// Command profiledprovider is the provider as main.go serves it, profiled
// for figure 7 of `make bench`: each process writes a CPU profile (and at its end a heap profile) into the
// directory BENCH_PROFILE_DIR names, with every sample taken during an RPC
// labelled rpc=<its name>, so that `go tool pprof -tags` splits the
// provider's CPU by RPC.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/provider"
)

func main() {
	bypass.TuneRuntime()
	if dir := os.Getenv("BENCH_PROFILE_DIR"); dir != "" {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid()))) //nolint:gosec // The bench's own directory.
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
			// What the process still holds at its end.
			if h, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", os.Getpid()))); err == nil { //nolint:gosec // The bench's own directory.
				_ = pprof.Lookup("heap").WriteTo(h, 0)
				_ = h.Close()
			}
		}()
	}
	server, err := provider.NewProtocol6Server(provider.New("bench")())()
	if err != nil {
		log.Fatal(err) //nolint:gocritic // Nothing to flush yet.
	}
	err = bypass.Serve("registry.terraform.io/platform/platform",
		func() tfprotov6.ProviderServer { return labelled{server} })
	if err != nil {
		log.Print(err)
	}
}

// labelled labels the samples of the RPCs of resources with their name.
type labelled struct{ tfprotov6.ProviderServer }

func do[Req, Resp any](ctx context.Context, name string, f func(context.Context, Req) (Resp, error), req Req) (resp Resp, err error) {
	pprof.Do(ctx, pprof.Labels("rpc", name), func(ctx context.Context) { resp, err = f(ctx, req) })
	return resp, err
}

func (s labelled) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return do(ctx, "GetProviderSchema", s.ProviderServer.GetProviderSchema, req)
}

func (s labelled) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return do(ctx, "ConfigureProvider", s.ProviderServer.ConfigureProvider, req)
}

func (s labelled) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return do(ctx, "ValidateResourceConfig", s.ProviderServer.ValidateResourceConfig, req)
}

func (s labelled) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return do(ctx, "UpgradeResourceState", s.ProviderServer.UpgradeResourceState, req)
}

func (s labelled) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return do(ctx, "ReadResource", s.ProviderServer.ReadResource, req)
}

func (s labelled) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return do(ctx, "PlanResourceChange", s.ProviderServer.PlanResourceChange, req)
}

func (s labelled) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return do(ctx, "ApplyResourceChange", s.ProviderServer.ApplyResourceChange, req)
}
