package provider

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// upgradeServed is how many upgrades the provider's server answered
// itself.
func (pp planPair) upgradeServed(t *testing.T) int64 {
	t.Helper()
	return servedBy[interface{ UpgradesServed() int64 }](t, pp, func(s interface{ UpgradesServed() int64 }) int64 {
		return s.UpgradesServed()
	})
}

// sameUpgrade upgrades the stored state js of typeName at version through
// both servers and fails unless the answers are the same: the upgraded
// state and the diagnostics. It returns whether the provider's server
// answered itself.
func (pp planPair) sameUpgrade(t *testing.T, typeName string, typ tftypes.Type, version int64, js []byte) bool {
	t.Helper()
	before := pp.upgradeServed(t)
	req := &tfprotov6.UpgradeResourceStateRequest{TypeName: typeName, Version: version, RawState: &tfprotov6.RawState{JSON: js}}
	ours, theirs := askBoth(t, pp, req, tfprotov6.ProviderServer.UpgradeResourceState)
	if (ours.UpgradedState == nil) != (theirs.UpgradedState == nil) {
		t.Fatalf("upgraded state: ours %v, framework %v", ours.UpgradedState, theirs.UpgradedState)
	}
	if ours.UpgradedState != nil {
		if o, f := decodedValue(t, typ, ours.UpgradedState), decodedValue(t, typ, theirs.UpgradedState); !o.Equal(f) {
			t.Errorf("upgraded state:\n ours %s\n framework %s", o, f)
		}
		if !hasMap(typ) && !bytes.Equal(ours.UpgradedState.MsgPack, theirs.UpgradedState.MsgPack) {
			t.Errorf("upgraded state's bytes differ:\n ours %x\n framework %x", ours.UpgradedState.MsgPack, theirs.UpgradedState.MsgPack)
		}
	}
	if o, f := diagText(ours.Diagnostics), diagText(theirs.Diagnostics); o != f || len(ours.Diagnostics) != len(theirs.Diagnostics) {
		t.Errorf("diagnostics:\n ours %s\n framework %s", o, f)
	}
	return pp.upgradeServed(t) > before
}

// hasMap reports whether typ holds a map, whose keys tftypes encodes in
// no fixed order (the bytes of two encodings may then differ).
func hasMap(typ tftypes.Type) bool {
	switch {
	case typ.Is(tftypes.Map{}):
		return true
	case typ.Is(tftypes.List{}):
		return hasMap(typ.(tftypes.List).ElementType)
	case typ.Is(tftypes.Set{}):
		return hasMap(typ.(tftypes.Set).ElementType)
	case typ.Is(tftypes.Object{}):
		return slices.ContainsFunc(slices.Collect(maps.Values(typ.(tftypes.Object).AttributeTypes)), hasMap)
	}
	return false
}

// storedJSON is v as Terraform stores it in a state file: objects and maps
// as JSON objects with sorted keys, lists and sets as arrays.
func storedJSON(t *testing.T, v tftypes.Value) []byte {
	t.Helper()
	var walk func(v tftypes.Value) any
	walk = func(v tftypes.Value) any {
		if v.IsNull() {
			return nil
		}
		typ := v.Type()
		switch {
		case typ.Is(tftypes.String):
			var s string
			_ = v.As(&s)
			return s
		case typ.Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			return b
		case typ.Is(tftypes.Number):
			f := new(big.Float)
			_ = v.As(&f)
			return json.Number(f.Text('g', -1))
		case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
			var elems []tftypes.Value
			_ = v.As(&elems)
			arr := []any{}
			for _, e := range elems {
				arr = append(arr, walk(e))
			}
			return arr
		default:
			var attrs map[string]tftypes.Value
			if err := v.As(&attrs); err != nil {
				t.Fatal(err)
			}
			obj := map[string]any{}
			for k, a := range attrs {
				obj[k] = walk(a)
			}
			return obj
		}
	}
	b, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEquivalenceUpgradeResourceState upgrades stored states through the
// provider's server, which transcodes the JSON of a state stored at the
// schema's version itself for the resources whose refreshes it answers,
// and through the framework alone: the answers are the same for the state
// of every such resource as Terraform stores it, compact and indented,
// with an attribute the schema no longer has, one it gained since, a
// string that needs escapes, for the states of testdata/upgrade, and for
// what goes to the framework (another version, a value of another kind,
// JSON that is not well formed).
func TestEquivalenceUpgradeResourceState(t *testing.T) {
	eachCreatedObject(t, func(t *testing.T, emu *emulator.Server, typeName string, typ tftypes.Type, _, state tftypes.Value) {
		pp := newPlanPair(t, emu)
		js := storedJSON(t, state)
		var indented bytes.Buffer
		if err := json.Indent(&indented, js, "", "  "); err != nil {
			t.Fatal(err)
		}
		var attrs map[string]any
		if err := json.Unmarshal(js, &attrs); err != nil {
			t.Fatal(err)
		}
		withRemoved := maps2JSON(t, attrs, func(m map[string]any) { m["removed_since"] = map[string]any{"x": []any{1, "}"}} })
		withoutID := maps2JSON(t, attrs, func(m map[string]any) { delete(m, "id") })
		escaped := maps2JSON(t, attrs, func(m map[string]any) {
			for k, v := range m {
				if s, ok := v.(string); ok && k != "id" {
					m[k] = s + " <&> \u00e9 \"q\""
					break
				}
			}
		})
		for name, js := range map[string][]byte{
			"compact": js, "indented": indented.Bytes(), "an attribute removed from the schema": withRemoved,
			"an attribute added to the schema": withoutID, "escapes": escaped,
		} {
			if !pp.sameUpgrade(t, typeName, typ, 0, js) {
				t.Errorf("%s: the server left the upgrade to the framework", name)
			}
		}
		idOfKind := maps2JSON(t, attrs, func(m map[string]any) { m["id"] = 12 })
		for name, c := range map[string]struct {
			version int64
			js      []byte
		}{
			"another version":         {1, js},
			"a value of another kind": {0, idOfKind},
			"not well formed":         {0, js[:len(js)-1]},
		} {
			if pp.sameUpgrade(t, typeName, typ, c.version, c.js) {
				t.Errorf("%s: the server answered the upgrade, want the framework", name)
			}
		}
	})
	t.Run("stored by Terraform", func(t *testing.T) {
		emu := startCore(t, emulator.Options{Seed: 1})
		pp := newPlanPair(t, emu)
		files, err := filepath.Glob(filepath.Join("testdata", "upgrade", "*.tfstate"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no states in testdata/upgrade: %v", err)
		}
		served := 0
		for _, f := range files {
			for _, in := range storedStates(t, f) {
				typ := pp.ours.schema.ResourceSchemas[in.typ].ValueType()
				if pp.sameUpgrade(t, in.typ, typ, in.version, in.attributes) {
					served++
				}
			}
		}
		if served == 0 {
			t.Error("the server answered none of the stored states")
		}
	})
}

// maps2JSON is the JSON of a copy of attrs that change changed.
func maps2JSON(t *testing.T, attrs map[string]any, change func(map[string]any)) []byte {
	t.Helper()
	c := make(map[string]any, len(attrs))
	for k, v := range attrs {
		c[k] = v
	}
	change(c)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "{") {
		t.Fatalf("not an object: %s", b)
	}
	return b
}

// BenchmarkUpgradeResourceState upgrades the stored state of each
// resource of testdata/upgrade/every_type.tfstate through the provider's
// server and through the framework alone.
func BenchmarkUpgradeResourceState(b *testing.B) {
	ours, err := NewProtocol6Server(newTestProvider())()
	if err != nil {
		b.Fatal(err)
	}
	framework, err := providerserver.NewProtocol6WithError(newTestProvider())()
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range storedStates(b, filepath.Join("testdata", "upgrade", "every_type.tfstate")) {
		req := &tfprotov6.UpgradeResourceStateRequest{TypeName: in.typ, RawState: &tfprotov6.RawState{JSON: in.attributes}}
		for _, s := range []struct {
			name string
			srv  tfprotov6.ProviderServer
		}{{"server", ours}, {"framework", framework}} {
			b.Run(strings.TrimPrefix(in.typ, "platform_")+"/"+s.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					resp, err := s.srv.UpgradeResourceState(b.Context(), req)
					if err != nil || resp.UpgradedState == nil {
						b.Fatal(err, resp.Diagnostics)
					}
				}
			})
		}
	}
}

// storedState is an object of a state file: its resource type, the
// version of its schema and its attributes as stored.
type storedState struct {
	typ        string
	version    int64
	attributes json.RawMessage
}

// storedStates are the objects of the state file at path.
func storedStates(tb testing.TB, file string) []storedState {
	tb.Helper()
	b, err := os.ReadFile(file) //nolint:gosec // A file of testdata.
	if err != nil {
		tb.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Version    int64           `json:"schema_version"`
				Attributes json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		tb.Fatal(err)
	}
	var out []storedState
	for _, r := range st.Resources {
		for _, in := range r.Instances {
			out = append(out, storedState{typ: r.Type, version: in.Version, attributes: in.Attributes})
		}
	}
	return out
}
