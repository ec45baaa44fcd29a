package provider

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// readServed is how many reads the provider's server answered itself.
func (pp planPair) readServed(t *testing.T) int64 {
	t.Helper()
	return servedBy[interface{ ReadServed() int64 }](t, pp, func(s interface{ ReadServed() int64 }) int64 {
		return s.ReadServed()
	})
}

// sameRead reads req through both servers and fails unless the answers
// are the same: new state, private data (byte for byte), identity,
// deferral and diagnostics with their attribute paths. It returns whether
// the provider's server answered itself, and its answer.
func (pp planPair) sameRead(t *testing.T, typ tftypes.Type, req *tfprotov6.ReadResourceRequest) (bool, *tfprotov6.ReadResourceResponse) {
	t.Helper()
	before := pp.readServed(t)
	ours, theirs := askBoth(t, pp, req, tfprotov6.ProviderServer.ReadResource)
	decode := func(dv *tfprotov6.DynamicValue) tftypes.Value { return decodedValue(t, typ, dv) }
	if (ours.NewState == nil) != (theirs.NewState == nil) {
		t.Errorf("new state: ours %v, framework %v", ours.NewState, theirs.NewState)
	}
	if o, f := decode(ours.NewState), decode(theirs.NewState); !o.Equal(f) {
		t.Errorf("new state:\n ours %s\n framework %s", o, f)
	}
	if ours.NewState != nil && theirs.NewState != nil && !bytes.Equal(ours.NewState.MsgPack, theirs.NewState.MsgPack) {
		t.Errorf("new state's bytes differ:\n ours %x\n framework %x", ours.NewState.MsgPack, theirs.NewState.MsgPack)
	}
	if !bytes.Equal(ours.Private, theirs.Private) {
		t.Errorf("private: ours %q, framework %q", ours.Private, theirs.Private)
	}
	if o, f := identityOf(t, pp.ours, req.TypeName, ours.NewIdentity), identityOf(t, pp.framework, req.TypeName, theirs.NewIdentity); !o.Equal(f) {
		t.Errorf("identity: ours %s, framework %s", o, f)
	}
	if !reflect.DeepEqual(ours.Deferred, theirs.Deferred) {
		t.Errorf("deferred: ours %v, framework %v", ours.Deferred, theirs.Deferred)
	}
	diagsOf := func(diags []*tfprotov6.Diagnostic) string {
		s := ""
		for _, d := range diags {
			s += fmt.Sprintf("%v %q %q at %v\n", d.Severity, d.Summary, d.Detail, d.Attribute)
		}
		return s
	}
	if o, f := diagsOf(ours.Diagnostics), diagsOf(theirs.Diagnostics); o != f {
		t.Errorf("diagnostics:\n ours %s\n framework %s", o, f)
	}
	return pp.readServed(t) > before, ours
}

// TestEquivalenceReadResource refreshes objects in state through the
// provider's server, which reads the objects of the resources that plan
// their unchanged objects themselves without the framework's walks, and
// through the framework alone: the answers are the same for an object
// read with and without its identity and private data, an object with
// another identity, one the service does not know, a create whose
// outcome is unknown (no id) and private data of the framework's own
// (left to the framework).
func TestEquivalenceReadResource(t *testing.T) {
	eachCreatedObject(t, func(t *testing.T, emu *emulator.Server, typeName string, typ tftypes.Type, _, state tftypes.Value) {
		pp := newPlanPair(t, emu)
		req := &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: protoDynamic(t, typ, state)}
		served, first := pp.sameRead(t, typ, req)
		if !served || hasErrorDiagnostic(first.Diagnostics) || first.NewIdentity == nil {
			t.Fatalf("the first read: served %t, diagnostics %s, identity %v", served, diagText(first.Diagnostics), first.NewIdentity)
		}
		// Again, with what the first read answered.
		again := &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: first.NewState,
			CurrentIdentity: first.NewIdentity, Private: first.Private}
		if served, _ := pp.sameRead(t, typ, again); !served {
			t.Error("the second read went through the framework")
		}
		// Private data of the provider's own.
		withPrivate := *again
		withPrivate.Private = []byte(`{"mine":"eyJhIjoxfQ=="}`)
		if served, _ := pp.sameRead(t, typ, &withPrivate); !served {
			t.Error("the read with private data went through the framework")
		}
		prior := decodedValue(t, typ, first.NewState)
		// A time in state written otherwise than the service's
		// answer, the same instant: the state keeps its own
		// (semantic equality).
		if created, ok := objectAttributes(t, prior)["created_at"]; ok && !created.IsNull() {
			var at string
			if err := created.As(&at); err != nil {
				t.Fatal(err)
			}
			written := strings.TrimSuffix(at, "Z") + "+00:00"
			if written == at+"+00:00" {
				t.Fatalf("created_at %q is not in UTC", at)
			}
			otherTime := *again
			otherTime.CurrentState = protoDynamic(t, typ, withAttribute(t, prior, "created_at", tfStr(written)))
			served, resp := pp.sameRead(t, typ, &otherTime)
			keptAttrs := objectAttributes(t, decodedValue(t, typ, resp.NewState))
			if !served || !keptAttrs["created_at"].Equal(tfStr(written)) {
				t.Errorf("a time written otherwise: served %t, created_at %s", served, keptAttrs["created_at"])
			}
		}
		// Another identity than the state's.
		idType := identityOf(t, pp.ours, typeName, first.NewIdentity).Type()
		other := protoDynamic(t, idType, tfValueOf(t, idType, map[string]any{"id": "another"}))
		otherID := *again
		otherID.CurrentIdentity = &tfprotov6.ResourceIdentityData{IdentityData: other}
		if served, resp := pp.sameRead(t, typ, &otherID); !served || !hasErrorDiagnostic(resp.Diagnostics) {
			t.Errorf("another identity: served %t, diagnostics %s", served, diagText(resp.Diagnostics))
		}
		// An object the service does not know.
		gone := &tfprotov6.ReadResourceRequest{TypeName: typeName,
			CurrentState: protoDynamic(t, typ, withAttribute(t, prior, "id", tfStr("00000000-0000-4000-8000-000000000000")))}
		if served, _ := pp.sameRead(t, typ, gone); !served {
			t.Error("the read of an unknown object went through the framework")
		}
		// A create whose outcome is unknown.
		noID := &tfprotov6.ReadResourceRequest{TypeName: typeName,
			CurrentState: protoDynamic(t, typ, withAttribute(t, prior, "id", tftypes.NewValue(tftypes.String, nil)))}
		pp.sameRead(t, typ, noID)
		// The framework's own private data: the framework reads.
		imported := *again
		imported.Private = []byte(`{".import_before_read":"dHJ1ZQ=="}`)
		if served, _ := pp.sameRead(t, typ, &imported); served {
			t.Error("a read with the framework's private data was answered without the framework")
		}
	})
}
