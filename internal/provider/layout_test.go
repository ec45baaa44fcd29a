package provider

import (
	"fmt"
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
	"*_ephemeral_resource.go", "*_arguments.go"}

// objectFiles are the files of one API object each (CONTRIBUTING's table):
// they are not held by this test.
var objectFiles = []string{"transfer.go", "fiat_deposit_instructions.go", "fiat_account.go", "fiat_objects.go",
	"deposit_address.go", "crypto_destination_address.go", "reward_claim.go", "stablecoin_conversion.go",
	"transfer_limit.go", "crypto_withdrawal.go", "fiat_withdrawal.go", "internal_transfer.go", "profile.go"}

// knownUpward are the references from shared files to type files left,
// each with why: remove one when it goes.
var knownUpward = map[upwardReference]string{}

func isTypeFile(name string) bool {
	return slices.ContainsFunc(typeFilePatterns, func(p string) bool {
		ok, _ := path.Match(p, name)
		return ok
	})
}

// upwardReference is a reference from a shared file to a name a type file
// declares.
type upwardReference struct{ from, to, name string }

// upwardReferences are the references of the shared files of the package
// in dir (neither a type file, an object file nor a test) to the package-level
// names the type files declare.
func upwardReferences(t *testing.T, dir string) []upwardReference {
	t.Helper()
	shared := func(name string) bool { return !isTypeFile(name) && !slices.Contains(objectFiles, name) }
	return references(t, dir, shared, isTypeFile)
}

// references are the references of the files of the package in dir that
// from selects (tests aside) to the package-level names that the files to
// selects declare.
func references(t *testing.T, dir string, from, to func(name string) bool) []upwardReference {
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
		if !from(name) {
			continue
		}
		methods := map[*ast.Ident]bool{}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
				methods[fn.Name] = true
			}
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				// A field or method name is not a package-level name.
				ast.Inspect(sel.X, visit)
				return false
			}
			if id, ok := n.(*ast.Ident); ok && id.Obj == nil && !methods[id] {
				if file := declared[id.Name]; file != "" && file != name && to(file) {
					out = append(out, upwardReference{name, file, id.Name})
				}
			}
			return true
		}
		ast.Inspect(f, visit)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.from+a.to+a.name < b.from+b.to+b.name
	})
	return out
}

// TestSharedFilesReferToNoTypeFile: a shared file of internal/provider
// (named for what it holds) does not depend on a type's file or on
// provider.go; what it needs lives in a shared file. knownUpward lists
// the references left, each with why.
func TestSharedFilesReferToNoTypeFile(t *testing.T) {
	refs := upwardReferences(t, ".")
	t.Logf("%d references from shared files to type files", len(refs))
	for _, r := range refs {
		if _, known := knownUpward[r]; !known {
			t.Errorf("%s refers to %s of %s: move it to a shared file (CONTRIBUTING.md, \"Where things are\")",
				r.from, r.name, r.to)
		}
	}
	for r, why := range knownUpward {
		if !slices.Contains(refs, r) {
			t.Errorf("%s no longer refers to %s of %s (%s): remove it from knownUpward", r.from, r.name, r.to, why)
		}
	}
}

// The check finds a shared file's reference to a type file's name, and
// none to a shared file's.
func TestSharedFilesCheckFails(t *testing.T) {
	dir, write := sourceWriter(t)
	write("thing_resource.go", "var thingWords = 1\n\nfunc thingHelper() int { return 2 }\n")
	write("values.go", "func helper() int { return 3 }\n")
	write("money_core.go", "type core struct{ thingWords int }\n\nfunc use(c core) int { return thingHelper() + helper() + c.thingWords }\n\n"+
		"// A method of the same name as a type file's function is not a reference to it.\n"+
		"func (c core) thingHelper() int { return c.thingWords }\n")
	refs := upwardReferences(t, dir)
	if len(refs) != 1 || refs[0] != (upwardReference{"money_core.go", "thing_resource.go", "thingHelper"}) {
		t.Errorf("references %+v, want money_core.go -> thing_resource.go: thingHelper only", refs)
	}
}

// sourceWriter returns a new directory and a function that writes a file
// of package provider into it: its name and its source after the package
// clause.
func sourceWriter(t *testing.T) (dir string, write func(name, src string)) {
	dir = t.TempDir()
	return dir, func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package provider\n\n"+src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// isMoneyFile reports a file of the money core (money_*.go, tests aside).
func isMoneyFile(name string) bool {
	return strings.HasPrefix(name, "money_") && !strings.HasSuffix(name, "_test.go")
}

// typeSpecific lists the type-specific identifiers the money files of the
// package in dir name: a reference to a name a type file or an object
// file declares, and a package-level name that carries the name of a
// money type (words, each a kind of money movement or a type's object).
func typeSpecific(t *testing.T, dir string, words []string) []string {
	t.Helper()
	var out []string
	typeOrObject := func(name string) bool { return isTypeFile(name) || slices.Contains(objectFiles, name) }
	for _, r := range references(t, dir, isMoneyFile, typeOrObject) {
		out = append(out, fmt.Sprintf("%s refers to %s of %s", r.from, r.name, r.to))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !isMoneyFile(e.Name()) || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for name := range f.Scope.Objects {
			for _, w := range words {
				if strings.Contains(strings.ToLower(name), strings.ReplaceAll(w, "_", "")) {
					out = append(out, fmt.Sprintf("%s declares %s, named for %s", e.Name(), name, w))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// moneyTypeWords are the names a money file never carries: every kind of
// money movement (money.kind) and the object the transfer flows share.
func moneyTypeWords() []string {
	words := []string{"transfer"}
	for _, k := range movementKinds {
		words = append(words, k.name)
	}
	return words
}

// TestMoneyFilesNameNoType: a money_*.go file holds the generic part of
// the money core and names no type: what is one type's lives in its
// file, what its object's in the object's file (the transfers' lists in
// transfer.go), and a kind of money movement is registered by its type's
// file (movementKind).
func TestMoneyFilesNameNoType(t *testing.T) {
	if len(movementKinds) == 0 {
		t.Fatal("no kind of money movement is registered")
	}
	for _, why := range typeSpecific(t, ".", moneyTypeWords()) {
		t.Errorf("%s: move it to the type's or the object's file (CONTRIBUTING.md, \"Where things are\")", why)
	}
}

// The check finds a money file's type-specific names, and nothing in a
// generic one.
func TestMoneyFilesCheckFails(t *testing.T) {
	dir, write := sourceWriter(t)
	write("transfer.go", "func transferHelper() int { return 1 }\n")
	write("money_core.go", "func use() int { return transferHelper() }\n")
	write("money_manifest.go", "const moneyKindThingMove = \"thing_move\"\n")
	write("money_flow.go", "func generic() int { return 2 }\n")
	got := typeSpecific(t, dir, []string{"thing_move"})
	want := []string{"money_core.go refers to transferHelper of transfer.go",
		"money_manifest.go declares moneyKindThingMove, named for thing_move"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
