package bypass

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// upgradeType is a type with every kind the transcoder handles, nested.
var upgradeType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id":     tftypes.String,
	"amount": tftypes.Number,
	"sends":  tftypes.Bool,
	"tags":   tftypes.List{ElementType: tftypes.String},
	"set":    tftypes.Set{ElementType: tftypes.Number},
	"meta":   tftypes.Map{ElementType: tftypes.String},
	"pair":   tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Bool}},
	"owner": tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"name":    tftypes.String,
		"address": tftypes.Object{AttributeTypes: map[string]tftypes.Type{"country": tftypes.String, "lines": tftypes.List{ElementType: tftypes.String}}},
	}},
	"items": tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"n": tftypes.Number, "s": tftypes.String}}},
}}

// frameworkUpgrade is what the framework answers for the stored JSON js
// at the schema's version: tftypes' decoding, ignoring undefined
// attributes, then its MessagePack.
func frameworkUpgrade(js []byte, typ tftypes.Type) (tftypes.Value, error) {
	v, err := (&tfprotov6.RawState{JSON: js}).UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{
		ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true},
	})
	if err != nil {
		return tftypes.Value{}, err
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return tftypes.Value{}, err
	}
	return dv.Unmarshal(typ)
}

// sameUpgrade fails unless the transcoder answers js as the framework
// does, or leaves it to the framework (transcoded is whether it did not).
func sameUpgrade(t *testing.T, js string, typ tftypes.Type) (transcoded bool) {
	t.Helper()
	want, ferr := frameworkUpgrade([]byte(js), typ)
	b, err := transcodeState([]byte(js), shapeOf(typ))
	if err != nil {
		return false
	}
	if ferr != nil {
		t.Fatalf("%s: transcoded, but the framework fails: %v", js, ferr)
	}
	got, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(typ)
	if err != nil {
		t.Fatalf("%s: the transcoded state does not decode: %v", js, err)
	}
	if !got.Equal(want) {
		t.Fatalf("%s:\n transcoded %s\n framework  %s", js, got, want)
	}
	return true
}

// TestEquivalenceTranscodeState: the stored JSON states a provider meets
// (compact and indented, attributes missing or unknown at every level,
// escapes, numbers of every form, repeated keys, null everywhere) are
// transcoded into the value the framework decodes from them; what the
// transcoder leaves to the framework (a value of another JSON kind, JSON
// that is not well formed) is left, never answered otherwise.
func TestEquivalenceTranscodeState(t *testing.T) {
	transcoded := []string{
		`{"id":"a","amount":0.5,"sends":true,"tags":["x","y"],"set":[1,2],"meta":{"k":"v","a":"b"},"pair":["p",false],` +
			`"owner":{"name":"Ada","address":{"country":"GBR","lines":["1 Road"]}},"items":[{"n":1,"s":"one"},{"n":2.25,"s":null}]}`,
		"{\n  \"id\": \"a\",\n  \"owner\": {\n    \"name\": \"Ada\"\n  },\n  \"tags\": [\n    \"x\"\n  ]\n}",
		`{}`,
		`null`,
		`{"id":null,"amount":null,"sends":null,"tags":null,"set":null,"meta":null,"pair":null,"owner":null,"items":null}`,
		`{"id":"a","removed":{"deep":[1,{"x":"}"}]},"owner":{"name":"n","gone":true,"address":{"old":1}}}`,
		`{"id":"\u003c\u0026\u003e \"q\" \\ \/ \u00e9 \ud83d\ude00 \t"}`,
		`{"id":"é ☃"}`,
		`{"amount":123456789012345678901234567890}`,
		`{"amount":-0.000001}`,
		`{"amount":1e300}`,
		`{"amount":1E-7}`,
		`{"amount":9223372036854775807}`,
		`{"amount":-9223372036854775808}`,
		`{"amount":0.1}`,
		`{"amount":3}`,
		`{"id":"first","id":"second"}`,
		`{"meta":{"k":"1","k":"2"}}`,
		`{"meta":{}}`,
		`{"tags":[],"set":[],"items":[]}`,
		`{"tags":[null,"x"]}`,
		` {"id" : "spaced" , "tags" : [ "a" , "b" ] } `,
	}
	for _, js := range transcoded {
		if !sameUpgrade(t, js, upgradeType) {
			t.Errorf("%s: left to the framework, want transcoded", js)
		}
	}
	leftToFramework := []string{
		`{"id":1}`,
		`{"id":true}`,
		`{"amount":"1.5"}`,
		`{"sends":"true"}`,
		`{"tags":"x"}`,
		`{"owner":[]}`,
		`{"pair":["p"]}`,
		`{"pair":["p",true,"extra"]}`,
		`{"id":"a"`,
		`{"id":"a"} trailing`,
		`{"id":"a",}`,
		`{"id":"\x01"}`,
		``,
		`[]`,
	}
	for _, js := range leftToFramework {
		if sameUpgrade(t, js, upgradeType) {
			t.Errorf("%s: transcoded, want it left to the framework", js)
		}
	}
	if shapeOf(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"d": tftypes.DynamicPseudoType}}) != nil {
		t.Error("a dynamic type has a shape: it must be left to the framework")
	}
}

// FuzzTranscodeState: for any JSON, the transcoder answers what the
// framework decodes, or leaves it to the framework.
func FuzzTranscodeState(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","amount":0.5,"tags":["x"],"meta":{"k":"v"},"owner":{"name":"n","address":{"country":"c"}}}`,
		`{"items":[{"n":1,"s":"\u00e9"}],"pair":["p",true]}`,
		`{"set":[1,2,3],"sends":false,"x":{"y":[1,2]}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, js string) {
		sameUpgrade(t, js, upgradeType)
	})
}
