package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContributingShowsTheDeclaration checks that CONTRIBUTING.md shows
// the declaration of platform_deposit_address as the code has it.
func TestContributingShowsTheDeclaration(t *testing.T) {
	src, err := os.ReadFile("deposit_address_resource.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "func NewDepositAddressResource()")
	decl := strings.Index(code, "var depositAddressType")
	if start < 0 || decl < 0 {
		t.Fatal("deposit_address_resource.go has no declaration")
	}
	end := decl + strings.Index(code[decl:], "\n}\n") + 2
	if !strings.Contains(string(doc), "```go\n"+code[start:end]+"```\n") {
		t.Errorf("CONTRIBUTING.md does not show the declaration of platform_deposit_address as it is:\n%s", code[start:end])
	}
}
