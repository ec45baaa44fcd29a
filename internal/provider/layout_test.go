package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// typeFilePatterns are the files of one Terraform type (or of provider.go):
// a shared file never refers to what they declare.
var typeFilePatterns = []string{"provider.go", "*_resource.go", "*_data_source.go", "*_action.go",
	"*_ephemeral_resource.go", "list_resources.go", "*_arguments.go"}

// objectFiles are the files of one API object each: shared files may read
// their shapes only where CONTRIBUTING's table says so, and they are not
// held by this test.
var objectFiles = []string{"transfer.go", "fiat_deposit_instructions.go", "fiat_account.go", "fiat_objects.go",
	"deposit_address.go", "crypto_destination_address.go", "reward_claim.go", "stablecoin_conversion.go",
	"transfer_limit.go", "fiat_withdrawal.go", "internal_transfer.go"}

// pendingFiles are the files of the temporary row of CONTRIBUTING's table,
// until the crypto withdrawal is a flow: what shared files use of them moves
// to shared files then (deref to values.go, the comparison to
// money_answer.go). Remove them with the row.
var pendingFiles = []string{"withdrawal_compare.go", "crypto_withdrawal_send.go", "crypto_withdrawal_refresh.go",
	"withdrawal_arguments.go", "crypto_withdrawal_resource.go"}

// upwardLimit is the most references from shared files to type files the
// package may hold (issue 46: at most 20), the pending files' included.
const upwardLimit = 20

// strictShared are the shared files that refer to no type file at all,
// pending files aside.
var strictShared = []string{"money_guard.go", "money_guard_checks.go", "money_guard_reads.go", "provider_data.go",
	"resource_state.go", "objects.go", "filters.go", "list_read.go", "money_lifecycle.go", "server.go"}

func isTypeFile(name string) bool {
	return slices.ContainsFunc(typeFilePatterns, func(p string) bool {
		ok, _ := path.Match(p, name)
		return ok
	}) || slices.Contains(pendingFiles, name)
}

// upwardReference is a reference from a shared file to a name a type file
// declares.
type upwardReference struct{ from, to, name string }

// upwardReferences are the references of the shared files of the package
// in dir (neither a type file, an object file nor a test) to the package-level
// names the type files declare.
func upwardReferences(t *testing.T, dir string) []upwardReference {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	declared := map[string]string{} // package-level name -> its file
	files := map[string]*ast.File{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = name
						}
					}
				}
			}
		}
	}
	var out []upwardReference
	for name, f := range files {
		if isTypeFile(name) || slices.Contains(objectFiles, name) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				// A field or method name is not a package-level name.
				ast.Inspect(sel.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && id.Obj == nil {
						if to := declared[id.Name]; to != "" && isTypeFile(to) {
							out = append(out, upwardReference{name, to, id.Name})
						}
					}
					return true
				})
				return false
			}
			if id, ok := n.(*ast.Ident); ok && id.Obj == nil {
				if to := declared[id.Name]; to != "" && to != name && isTypeFile(to) {
					out = append(out, upwardReference{name, to, id.Name})
				}
			}
			return true
		})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.from+a.to+a.name < b.from+b.to+b.name
	})
	return out
}

// TestSharedFilesReferToNoTypeFile: a shared file of internal/provider
// (named for what it holds) does not depend on a type's file or on
// provider.go; what it needs lives in a shared file. The files of
// strictShared refer to none; the package holds at most upwardLimit such
// references while the crypto withdrawal's pending files remain.
func TestSharedFilesReferToNoTypeFile(t *testing.T) {
	refs := upwardReferences(t, ".")
	t.Logf("%d references from shared files to type files", len(refs))
	for _, r := range refs {
		if slices.Contains(strictShared, r.from) && !slices.Contains(pendingFiles, r.to) {
			t.Errorf("%s refers to %s of %s: move it to a shared file (CONTRIBUTING.md, \"Where things are\")",
				r.from, r.name, r.to)
		}
	}
	if len(refs) > upwardLimit {
		var list []string
		for _, r := range refs {
			list = append(list, r.from+" -> "+r.to+": "+r.name)
		}
		t.Errorf("%d references from shared files to type files, at most %d:\n%s", len(refs), upwardLimit,
			strings.Join(list, "\n"))
	}
}

// The check finds a shared file's reference to a type file's name, and
// none to a shared file's.
func TestSharedFilesCheckFails(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package provider\n\n"+src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("thing_resource.go", "var thingWords = 1\n\nfunc thingHelper() int { return 2 }\n")
	write("values.go", "func helper() int { return 3 }\n")
	write("money_core.go", "type core struct{ thingWords int }\n\nfunc use(c core) int { return thingHelper() + helper() + c.thingWords }\n")
	refs := upwardReferences(t, dir)
	if len(refs) != 1 || refs[0] != (upwardReference{"money_core.go", "thing_resource.go", "thingHelper"}) {
		t.Errorf("references %+v, want money_core.go -> thing_resource.go: thingHelper only", refs)
	}
}
