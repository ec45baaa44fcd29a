// Command clitests prints the go test -run pattern of the acceptance tests
// whose behaviour depends on the CLI (registry.CLITests): make test runs
// them under every CLI besides the one that runs the whole suite.
package main

import (
	"fmt"

	"github.com/platform/terraform-provider-platform/internal/registry"
)

func main() {
	fmt.Println(registry.CLITestPattern())
}
