package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/platform/terraform-provider-platform/internal/registry"
)

// The derived ref_ids are part of the contract with the states users
// already hold: an unconfirmed create is retried under the ref_id derived
// from its arguments, so a change of the derivation would retry it under
// a second key. TestDerivedRefIDGolden pins them, one file per resource on
// the money core under testdata/refids: the arguments of each case, as
// Terraform values, and the ref_id derived from them.

// refIDDir holds the golden file of each resource on the money core.
var refIDDir = filepath.Join("testdata", "refids")

// refIDGoldenFile is the golden file of the resource type typ.
func refIDGoldenFile(typ string) string { return filepath.Join(refIDDir, typ+".json") }

// refIDCase is one pinned derivation: a configuration's arguments and the
// ref_id derived from them.
type refIDCase struct {
	Name string `json:"name"`
	// Arguments are the configured arguments, as Terraform values in JSON
	// (objects for nested attributes); every other attribute is null.
	Arguments map[string]any `json:"arguments"`
	// AfterDeprecated is the id of a deprecated set whose successor's
	// ref_id is derived (fiat deposit instructions only).
	AfterDeprecated string `json:"after_deprecated,omitempty"`
	RefID           string `json:"ref_id"`
	// previousRelease, when set, is the ref_id that the previous release
	// recorded for these arguments (testdata/upgrade): the derivation must
	// still give it, whatever the golden file says.
	previousRelease string
}

// refIDGolden is a golden file: the derivations of one resource type.
type refIDGolden struct {
	ResourceType string `json:"resource_type"`
	// RefNamespace is the namespace of its ref_ids
	// (registry.MoneyCoreResource), part of every derivation.
	RefNamespace string      `json:"kind"`
	Cases        []refIDCase `json:"cases"`
}

// refIDRow is what the golden test derives for one resource type: its
// cases (without their ref_ids), derived by its declaration.
type refIDRow struct {
	cases []refIDCase
}

// derivingResource is a resource whose declaration derives ref_ids.
type derivingResource interface {
	derivedFrom(ctx context.Context, src getter, after string) (string, bool)
}

// refIDRows are the rows of the golden test, by resource type: every
// resource on the money core (registry.MoneyCore), each from its fixture.
func refIDRows() map[string]refIDRow {
	return rowsOf(func(f moneyFixture) (refIDRow, bool) { return refIDRow{cases: f.refIDs}, f.naturalKey == "" })
}

// fiatAccountGoldenArguments are the arguments of a wire account of Ada
// Lovelace with the account number number, and metadata.
func fiatAccountGoldenArguments(number string) map[string]any {
	a := fiatAccountWireArguments(number)
	a["metadata"] = map[string]any{"purpose": "core"}
	return a
}

// fiatAccountWireArguments are the arguments of a wire account of Ada
// Lovelace with the account number number.
func fiatAccountWireArguments(number string) map[string]any {
	return map[string]any{
		"fiat_account_owner": map[string]any{"person_details": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}},
		"fiat_network_instructions": map[string]any{"wire": map[string]any{
			"account_number":             number,
			"fiat_account_owner_address": map[string]any{"country": "USA", "city": "New York"},
			"routing_details": map[string]any{
				"routing_number_type": "ABA", "routing_number": "031302971", "bank_name": "Customers Bank",
				"bank_address": map[string]any{"country": "USA"},
			},
		}},
	}
}

// TestDerivedRefIDGolden derives the ref_id of each case of refIDRows from
// a configuration of the resource's own schema and compares the result
// with its golden file (rewritten with -update: go test ./internal/provider
// -run TestDerivedRefIDGolden -update, and review the change).
func TestDerivedRefIDGolden(t *testing.T) {
	resources := map[string]resource.Resource{}
	for _, f := range newTestProvider().Resources(t.Context()) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "platform"}, &meta)
		resources[meta.TypeName] = r
	}
	rows := refIDRows()
	for _, typ := range mapKeys(rows) {
		t.Run(typ, func(t *testing.T) {
			got := derivedGolden(t, typ, resources[typ], rows[typ])
			b, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, '\n')
			file := refIDGoldenFile(typ)
			if *update {
				writeGolden(t, file, b)
				return
			}
			pinned, err := os.ReadFile(file)
			if errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s has no pinned ref_ids (%s): run go test ./internal/provider -run TestDerivedRefIDGolden "+
					"-update, and review the new file", typ, file)
			}
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(b, pinned) {
				return
			}
			var want refIDGolden
			if err := json.Unmarshal(pinned, &want); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			compareGolden(t, file, want, got)
		})
	}
	// Every file is the golden file of a row.
	files, err := filepath.Glob(filepath.Join(refIDDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if typ := strings.TrimSuffix(filepath.Base(f), ".json"); rows[typ].cases == nil {
			t.Errorf("%s pins the ref_ids of %s, which has no row in refIDRows", f, typ)
		}
	}
}

// derivedGolden derives the golden file of typ, whose resource is r.
func derivedGolden(t *testing.T, typ string, r resource.Resource, row refIDRow) refIDGolden {
	t.Helper()
	ctx := t.Context()
	marker, ok := r.(registry.MoneyCoreResource)
	if !ok {
		t.Fatalf("%s is not a registered resource on the money core", typ)
	}
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	objType := sch.Schema.Type().TerraformType(ctx)
	got := refIDGolden{ResourceType: typ, RefNamespace: marker.MoneyCoreRefNamespace()}
	for _, c := range row.cases {
		raw := tfValueOf(t, objType, c.Arguments)
		d, _ := r.(derivingResource)
		if d == nil {
			t.Fatalf("%s derives no ref_id", typ)
		}
		refID, ok := d.derivedFrom(ctx, tfsdk.Config{Schema: sch.Schema, Raw: raw}, c.AfterDeprecated)
		if !ok || refID == "" {
			t.Fatalf("%s: no ref_id derived for %q", typ, c.Name)
		}
		if c.previousRelease != "" && refID != c.previousRelease {
			t.Errorf("%s: %q derives ref_id %s, the previous release recorded %s: its unconfirmed creates would be "+
				"retried under a second key", typ, c.Name, refID, c.previousRelease)
		}
		c.RefID = refID
		got.Cases = append(got.Cases, c)
	}
	return got
}

// compareGolden reports how the derivations got differ from the pinned
// ones.
func compareGolden(t *testing.T, file string, want, got refIDGolden) {
	t.Helper()
	if want.ResourceType != got.ResourceType || want.RefNamespace != got.RefNamespace {
		t.Errorf("%s pins %s of namespace %q, the resource is %s of namespace %q: the namespace is part of every "+
			"derived ref_id",
			file, want.ResourceType, want.RefNamespace, got.ResourceType, got.RefNamespace)
	}
	pinned := map[string]refIDCase{}
	for _, c := range want.Cases {
		pinned[c.Name] = c
	}
	for _, c := range got.Cases {
		p, ok := pinned[c.Name]
		switch {
		case !ok:
			t.Errorf("%s: case %q is not pinned: run with -update and review the new case", file, c.Name)
		case canonicalArguments(p) != canonicalArguments(c):
			t.Errorf("%s: the arguments of case %q differ from the pinned ones (%s, pinned %s): a pinned case is "+
				"never changed; add a new one and run with -update", file, c.Name, canonicalArguments(c), canonicalArguments(p))
		case p.RefID != c.RefID:
			t.Errorf("%s: %q derives ref_id %s, pinned %s: changing the derivation makes every unconfirmed create in "+
				"users' states retry under a second key", file, c.Name, c.RefID, p.RefID)
		}
		delete(pinned, c.Name)
	}
	for _, name := range slices.Sorted(mapKeysSeq(pinned)) {
		t.Errorf("%s pins case %q, which the test no longer derives", file, name)
	}
}

// canonicalArguments is the arguments of c and what they derive after, as
// JSON with sorted keys.
func canonicalArguments(c refIDCase) string {
	b, _ := json.Marshal(struct {
		Arguments       map[string]any `json:"arguments"`
		AfterDeprecated string         `json:"after_deprecated"`
	}{c.Arguments, c.AfterDeprecated})
	return string(b)
}

// mapKeysSeq yields the keys of m.
func mapKeysSeq[V any](m map[string]V) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
