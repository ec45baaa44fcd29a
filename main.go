// Command terraform-provider-platform serves the platform Terraform provider.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/platform/terraform-provider-platform/internal/provider"
)

// version is set at build time by goreleaser (-X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/platform/platform",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
