// Command terraform-provider-platform serves the platform Terraform provider.
package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/provider"
)

// version is set at build time by goreleaser (-X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		// Under a debugger the logs go to the console: keep them.
		bypass.TuneRuntime()
	}

	// The provider's protocol 6 server is the framework's, with the list
	// data sources' state streamed (see provider.NewProtocol6Server).
	server, err := provider.NewProtocol6Server(provider.New(version)())()
	if err != nil {
		log.Fatal(err)
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err = bypass.Serve("registry.terraform.io/platform/platform",
		func() tfprotov6.ProviderServer { return server }, opts...)
	if err != nil {
		log.Fatal(err)
	}
}
