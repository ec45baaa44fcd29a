package provider

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// missingMethods lists the exported methods of want that got lacks.
func missingMethods(want, got reflect.Type) []string {
	var out []string
	for i := range want.NumMethod() {
		m := want.Method(i)
		if _, ok := got.MethodByName(m.Name); !ok {
			out = append(out, m.Name)
		}
	}
	return out
}

// TestServerExposesEveryFrameworkMethod fails when the framework's
// protocol 6 server has a method that the server of NewProtocol6Server
// hides (an RPC group terraform-plugin-go added since): Terraform would get
// "unimplemented" for it. Add the group to frameworkServer (server.go).
func TestServerExposesEveryFrameworkMethod(t *testing.T) {
	framework, err := providerserver.NewProtocol6WithError(newTestProvider())()
	if err != nil {
		t.Fatal(err)
	}
	served, err := NewProtocol6Server(newTestProvider())()
	if err != nil {
		t.Fatal(err)
	}
	if reflect.TypeOf(framework).NumMethod() < 20 {
		t.Fatalf("the framework's server has %d methods: not the server this test expects", reflect.TypeOf(framework).NumMethod())
	}
	if missing := missingMethods(reflect.TypeOf(framework), reflect.TypeOf(served)); len(missing) > 0 {
		t.Errorf("the provider's server hides the framework's methods %v; add their groups to frameworkServer", missing)
	}
	// The check itself: a wrapper of the base interface alone hides the
	// optional groups (list resources, actions, state stores).
	type baseOnly struct{ tfprotov6.ProviderServer }
	missing := missingMethods(reflect.TypeOf(framework), reflect.TypeOf(&baseOnly{}))
	for _, want := range []string{"ListResource", "InvokeAction", "ReadStateBytes"} {
		found := false
		for _, m := range missing {
			found = found || m == want
		}
		if !found {
			t.Errorf("a wrapper without the optional groups is not caught: missing %v lacks %s", missing, want)
		}
	}
}
