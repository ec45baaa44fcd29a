package client

import (
	"slices"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/contract"
)

// TestOperationScopesAreTheReference: the scope the client asks for each
// operation it calls is the security requirement the published reference
// gives that operation, and the operation is one of the reference.
func TestOperationScopesAreTheReference(t *testing.T) {
	ref, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range Operations {
		got, ok := ref.Operation(op.Method, op.Path)
		if !ok {
			t.Errorf("%s %s is no operation of the reference", op.Method, op.Path)
			continue
		}
		var want []string
		if op.Scope != "" {
			want = []string{op.Scope}
		}
		if !slices.Equal(got.Scopes, want) {
			t.Errorf("%s %s (%s): the client asks %v, the reference requires %v", op.Method, op.Path, got.ID, want, got.Scopes)
		}
	}
}
