package provider

// The tables of the tests and of `make bench` iterate the provider's own
// registry (Resources, DataSources, EphemeralResources, ListResources,
// Actions; list data sources picked by their schema), each type with its
// small fixture. TestRegistryComplete fails when a registered type has no
// row in a table that concerns it, naming the type and the table. The
// money types' rows are their fixtures' (money_fixture_test.go), checked by
// TestRegistryMoneyFixtures.

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/platform/terraform-provider-platform/internal/registry"
)

// update rewrites the golden files under testdata instead of comparing
// with them (go test ./internal/provider -run 'TestEquivalenceListStatePinned|TestDerivedRefIDGolden' -update).
var update = flag.Bool("update", false, "rewrite the golden files under testdata (TestEquivalenceListStatePinned, TestDerivedRefIDGolden) instead of comparing with them")

// registeredTypes is every type the provider registers.
func registeredTypes(tb testing.TB) []registry.Type {
	tb.Helper()
	return registry.Types(tb.Context(), newTestProvider())
}

// registeredLists is the name of every list data source the provider
// registers.
func registeredLists(tb testing.TB) []string {
	tb.Helper()
	return registry.ListDataSources(registeredTypes(tb))
}

// listFixture is the fixture of the list data source typ.
func listFixture(tb testing.TB, typ string) registry.ListFixture {
	tb.Helper()
	f, ok := registry.ListFixtures[typ]
	if !ok {
		tb.Fatalf("list data source %s has no fixture in registry.ListFixtures (internal/registry/fixtures.go)", typ)
	}
	return f
}

// pinnedDir holds one file per list data source with the SHA-256 of its
// pinned state (TestEquivalenceListStatePinned).
var pinnedDir = filepath.Join("testdata", "pinned")

// pinnedFile is the golden file of the list data source typ.
func pinnedFile(typ string) string { return filepath.Join(pinnedDir, typ+".sha256") }

// pinnedRows are the list data sources with a golden file.
func pinnedRows(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(pinnedDir, "*.sha256"))
	if err != nil {
		tb.Fatal(err)
	}
	rows := make([]string, 0, len(files))
	for _, f := range files {
		rows = append(rows, strings.TrimSuffix(filepath.Base(f), ".sha256"))
	}
	return rows
}

// badInputRows are the blocks with at least one invalid case in the
// bad-input tables (the provider block aside).
func badInputRows() []string {
	var rows []string
	for _, c := range slices.Concat(resourceAndDataBadInputs(), actionBadInputs(), listResourceBadInputs()) {
		if c.kind != "provider" && !slices.Contains(rows, c.block()) {
			rows = append(rows, c.block())
		}
	}
	return rows
}

// validArgsRows are the blocks with valid arguments in validArgs.
func validArgsRows() []string {
	var rows []string
	for block := range validArgs {
		if block != "provider" {
			rows = append(rows, block)
		}
	}
	return rows
}

// registryTables are the tables that must have a row for every registered
// type they concern.
func registryTables(tb testing.TB) []registry.Table {
	tb.Helper()
	planned := registry.Kinds(registry.Resource, registry.DataSource, registry.EphemeralResource, registry.Action, registry.ListResource)
	return []registry.Table{
		{Name: "bad-input valid arguments (validArgs, bad_input_test.go)", Concerns: planned, Rows: validArgsRows()},
		{Name: "bad-input cases (resourceAndDataBadInputs, withdrawalBadInputs, listResourceBadInputs; bad_input_test.go)", Concerns: planned, Rows: badInputRows()},
		{Name: "hostile-server (hostileItemPages, hostile_server_test.go)", Concerns: registry.Lists, Rows: mapKeys(hostileItemPages)},
		{Name: "streamed-vs-framework equivalence (equivalenceItems, TestEquivalenceListStateStreamed)", Concerns: registry.Lists, Rows: mapKeys(equivalenceItems)},
		{Name: "pinned-state (testdata/pinned/<type>.sha256, TestEquivalenceListStatePinned)", Concerns: registry.Lists, Rows: pinnedRows(tb)},
		{Name: "bench figure 5 (registry.ListFixtures, internal/registry/fixtures.go)", Concerns: registry.Lists, Rows: mapKeys(registry.ListFixtures)},
		{Name: "bench figure 7 (registry.PlanFixtures, internal/registry/fixtures.go)", Concerns: registry.Kinds(registry.Resource), Rows: mapKeys(registry.PlanFixtures)},
		{Name: "CLI matrix (registry.CLITests, internal/registry/cli.go)", Concerns: cliMatrixKinds, Rows: cliMatrixRows()},
	}
}

// cliMatrixKinds are the kinds of types whose behaviour depends on the CLI
// and that need tests under every CLI (registry.CLITests).
var cliMatrixKinds = registry.Kinds(registry.Resource, registry.EphemeralResource, registry.Action, registry.ListResource)

// cliMatrixRows are the types with tests in registry.CLITests, the one
// list of the CLI matrix, money types included.
func cliMatrixRows() []string {
	var rows []string
	for typ, tests := range registry.CLITests {
		if typ != "provider" && len(tests) > 0 {
			rows = append(rows, typ)
		}
	}
	return rows
}

// TestCLITestsExist checks that every test the CLI matrix names is an
// acceptance test of this package, so that a renamed test cannot leave the
// matrix silently.
func TestCLITestsExist(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		parsed, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range parsed.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				declared[fn.Name.Name] = true
			}
		}
	}
	if len(registry.CLITests["provider"]) == 0 {
		t.Error(`registry.CLITests has no "provider" entry`)
	}
	for typ, tests := range registry.CLITests {
		for _, name := range tests {
			if !strings.HasPrefix(name, "TestAcc") || !declared[name] {
				t.Errorf("registry.CLITests[%q] names %s, which is not an acceptance test (TestAcc...) of this package", typ, name)
			}
		}
	}
	pattern := regexp.MustCompile(registry.CLITestPattern())
	if !pattern.MatchString("TestAccMoneyCore") || pattern.MatchString("TestAccMoneyCoreX") || pattern.MatchString("TestAccBadInput_rejectedAtPlan") {
		t.Errorf("the pattern %s matches other tests than the matrix's", pattern)
	}
}

func mapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestRegistryComplete checks that every table has a row for every
// registered type it concerns, and no row for a type the provider does
// not register.
func TestRegistryComplete(t *testing.T) {
	types := registeredTypes(t)
	if lists := registry.ListDataSources(types); len(lists) < 4 || !slices.Contains(lists, "platform_transfers") {
		t.Fatalf("list data sources picked by their schema: %v", lists)
	}
	for _, m := range registry.Missing(types, registryTables(t)...) {
		t.Error(m)
	}
}

// TestRegistryCompleteNamesMissingRow removes, from each table in turn, the
// row of one type it concerns, and checks that the completeness check then
// reports exactly that type and that table (besides what it reports for
// the tables as they are).
func TestRegistryCompleteNamesMissingRow(t *testing.T) {
	types := registeredTypes(t)
	tables := registryTables(t)
	before := registry.Missing(types, tables...)
	for i, tb := range tables {
		var removed registry.Type
		for _, typ := range types {
			if tb.Concerns(typ) && (slices.Contains(tb.Rows, typ.String()) || slices.Contains(tb.Rows, typ.Name)) {
				removed = typ
				if typ.Name == "platform_transfers" {
					break
				}
			}
		}
		if removed.Name == "" {
			t.Fatalf("the %s table has no row", tb.Name)
		}
		cut := tb
		cut.Rows = slices.DeleteFunc(slices.Clone(tb.Rows), func(r string) bool { return r == removed.String() || r == removed.Name })
		edited := slices.Clone(tables)
		edited[i] = cut
		got := slices.DeleteFunc(registry.Missing(types, edited...), func(m string) bool { return slices.Contains(before, m) })
		if len(got) != 1 || !strings.Contains(got[0], removed.Name) || !strings.Contains(got[0], tb.Name) {
			t.Errorf("without %s in the %s table, the check reports %q; want one line naming both", removed, tb.Name, got)
			continue
		}
		t.Logf("without %s: %s", removed, got[0])
	}

	// A row for a type the provider does not register is reported too.
	stale := tables[len(tables)-1]
	stale.Rows = append(slices.Clone(stale.Rows), "platform_gone")
	if got := registry.Missing(types, stale); len(got) != 1 || !strings.Contains(got[0], "platform_gone") {
		t.Errorf("a row for an unregistered type: the check reports %q", got)
	}
}

// writeGolden writes a golden file, creating its directory.
func writeGolden(tb testing.TB, file string, b []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o750); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// TestMoneyCoreMarker checks that the registry marks as on the money core
// (registry.MoneyCoreResource) exactly the resources that are declarations
// of the core (newMoneyResource), each with a kind of its own, and that
// planNewObject is called by the core alone: a resource that drove the
// core by hand would escape every table of the core.
func TestMoneyCoreMarker(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range parsed.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Body != nil && callsFunc(fn.Body, "planNewObject") && f != "money_lifecycle.go" {
				t.Errorf("%s: %s calls planNewObject; only the lifecycle of the core (money_lifecycle.go) may", f, fn.Name.Name)
			}
		}
	}
	marked := map[string]bool{}
	for _, typ := range registeredTypes(t) {
		if typ.MoneyCore {
			marked[typ.Name] = true
		}
	}
	namespaces := map[string]string{}
	for _, f := range newTestProvider().Resources(t.Context()) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "platform"}, &meta)
		_, declared := r.(declaredMoneyType)
		m, isMarked := r.(registry.MoneyCoreResource)
		switch {
		case declared != isMarked:
			t.Errorf("%s: a declaration of the core %v, marked %v", meta.TypeName, declared, isMarked)
		case isMarked:
			ns := m.MoneyCoreRefNamespace()
			if ns == "" || namespaces[ns] != "" {
				t.Errorf("%s: MoneyCoreRefNamespace %q is empty or also %s's", meta.TypeName, ns, namespaces[ns])
			}
			namespaces[ns] = meta.TypeName
		}
		if isMarked != marked[meta.TypeName] {
			t.Errorf("%s: implements the marker %v, the registry marks it %v", meta.TypeName, isMarked, marked[meta.TypeName])
		}
	}
	if len(marked) != 10 || !marked["platform_profile"] || !marked["platform_crypto_withdrawal"] || !marked["platform_fiat_withdrawal"] || !marked["platform_crypto_destination_address"] {
		t.Errorf("the registry marks %v as on the money core", mapKeys(marked))
	}
}

// callsFunc reports whether body calls the package function name.
func callsFunc(body ast.Node, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		fun := call.Fun
		switch f := fun.(type) {
		case *ast.IndexExpr:
			fun = f.X
		case *ast.IndexListExpr:
			fun = f.X
		}
		if id, ok := fun.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
