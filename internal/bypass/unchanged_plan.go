package bypass

import (
	"bytes"
	"context"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The plan of an object in state that the configuration leaves as it is.
//
// A plan refreshes and plans every resource in state, and most of them do
// not change. For such an object (Terraform proposes exactly the prior
// state) the framework's PlanResourceChange still walks the whole value
// several times: defaults, write-only attributes, every attribute's plan
// modifiers, each write rebuilding the object. None of it can change
// anything: the plan modifiers of these resources (UseStateForUnknown,
// RequiresReplace, RequiresReplaceIf) leave a value equal to its state
// alone, and their schemas have no write-only attributes
// (TestEquivalenceUnchangedPlanners, in the provider, holds the list of
// the plan modifiers allowed) and no defaults (a resource whose schema
// has one is left to the framework: withDefault). What is left is the resource's own
// decision about the object, which it makes from its state: a withdrawal
// claims its ref_id against the new ones of the plan, deprecated deposit
// instructions are replaced.
//
// So the server asks the resource for that decision first
// (PlanUnchanged), and when the answer is "no change, nothing to say", it
// answers the plan itself: the prior state, private data and identity, as
// the framework would. Any other case (a change, a decision with something
// to say, an error, a process whose provider is not configured, and
// whatever Terraform allows to defer: the provider's configuration or the
// plan) goes through the framework as before. TestEquivalenceUnchangedPlan, in the provider, compares the two
// answers; TestEquivalenceUnchangedPlanUnderDeferral checks that a
// deferred provider's plans are the framework's.

// PlanUnchanged is a resource's decision about the plan of the object in
// state, which the configuration leaves as it is: true when the plan is
// no change with nothing to say. It may record what the plan needs to
// remember only when it reports true: the framework plans the object again
// otherwise. configured is what the provider's Configure offered
// (OfferConfigured).
type PlanUnchanged func(ctx context.Context, configured any, state tfsdk.State) bool

// PlannerOf is the PlanUnchanged of the resource r, or nil when r leaves
// the plans of its unchanged objects to the framework.
type PlannerOf func(r resource.Resource) PlanUnchanged

// unchangedPlans serves the plans of unchanged objects for one provider
// server.
type unchangedPlans struct {
	// configured is the provider's configuration, set by
	// ConfigureProvider; nil until the provider is configured, and when
	// its configuration failed or may have deferred.
	configured atomic.Pointer[configuration]
	// byType are the planners by resource type; their schemas are read
	// on first use.
	byType map[string]*unchangedType
	// served counts the plans answered here (for the tests).
	served atomic.Int64
}

// configuration is what the provider's Configure offered.
type configuration struct {
	data any
}

// unchangedType is one resource type that plans unchanged objects itself.
type unchangedType struct {
	resource resource.Resource
	plan     PlanUnchanged
	once     sync.Once
	schema   schema.Schema
	typ      tftypes.Type
	// nullIdentity is the identity the framework plans when Terraform
	// sends none (Terraform before 1.12).
	nullIdentity *tfprotov6.ResourceIdentityData
	ok           bool
}

// UnchangedPlanners are the resources of p whose plans of unchanged objects
// the server answers (those plannerOf gives a PlanUnchanged), by type name.
func UnchangedPlanners(ctx context.Context, p provider.Provider, plannerOf PlannerOf) map[string]resource.Resource {
	out := map[string]resource.Resource{}
	for name, t := range unchangedTypes(ctx, p, plannerOf) {
		if t.load(ctx) {
			out[name] = t.resource
		}
	}
	return out
}

// newUnchangedPlans finds the resources of p that plan unchanged objects
// themselves.
func newUnchangedPlans(ctx context.Context, p provider.Provider, plannerOf PlannerOf) *unchangedPlans {
	return &unchangedPlans{byType: unchangedTypes(ctx, p, plannerOf)}
}

// unchangedTypes are the resource types of p that plan unchanged objects
// themselves, by name.
func unchangedTypes(ctx context.Context, p provider.Provider, plannerOf PlannerOf) map[string]*unchangedType {
	byType := map[string]*unchangedType{}
	if plannerOf == nil {
		return byType
	}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		plan := plannerOf(r)
		if plan == nil {
			continue
		}
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
		byType[m.TypeName] = &unchangedType{resource: r, plan: plan}
	}
	return byType
}

// load reads the schemas of t once.
func (t *unchangedType) load(ctx context.Context) bool {
	t.once.Do(func() {
		var s resource.SchemaResponse
		t.resource.Schema(ctx, resource.SchemaRequest{}, &s)
		if s.Diagnostics.HasError() || withDefault(s.Schema) {
			return
		}
		t.schema, t.typ = s.Schema, s.Schema.Type().TerraformType(ctx)
		if withIdentity, ok := t.resource.(resource.ResourceWithIdentity); ok {
			var is resource.IdentitySchemaResponse
			withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &is)
			if is.Diagnostics.HasError() {
				return
			}
			ityp := is.IdentitySchema.Type().TerraformType(ctx)
			null, err := tfprotov6.NewDynamicValue(ityp, tftypes.NewValue(ityp, nil))
			if err != nil {
				return
			}
			t.nullIdentity = &tfprotov6.ResourceIdentityData{IdentityData: &null}
		}
		t.ok = true
	})
	return t.ok
}

// withDefault reports whether an attribute of s, at any depth, has a
// default. The framework sets a default in the plan of an object whose
// configuration leaves the attribute null, even when Terraform proposes
// the prior state, so the plans of such a resource (and its reads, which
// the server answers for the same resources) go through the framework.
func withDefault(s schema.Schema) bool {
	for _, a := range s.Attributes {
		if attributeWithDefault(a) {
			return true
		}
	}
	return false
}

func attributeWithDefault(a schema.Attribute) bool {
	// Every attribute type of the framework's resource schemas holds its
	// default in a field named Default (nil: none).
	if v := reflect.ValueOf(a); v.Kind() == reflect.Struct {
		if d := v.FieldByName("Default"); d.IsValid() && !d.IsNil() {
			return true
		}
	}
	if n, ok := a.(schema.NestedAttribute); ok {
		for _, na := range n.GetNestedObject().GetAttributes() {
			if sa, ok := na.(schema.Attribute); ok && attributeWithDefault(sa) {
				return true
			}
		}
	}
	return false
}

// plan answers the plan of req when it is the plan of an unchanged object
// with nothing to say; nil leaves it to the framework.
func (u *unchangedPlans) plan(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	t, ok := u.byType[req.TypeName]
	configured := u.configured.Load()
	// A plan Terraform allows to defer goes to the framework: the
	// resource's ModifyPlan may defer it.
	deferrable := req.ClientCapabilities != nil && req.ClientCapabilities.DeferralAllowed
	if !ok || configured == nil || deferrable || req.PriorState == nil || req.ProposedNewState == nil ||
		req.PriorState.JSON != nil || req.ProposedNewState.JSON != nil ||
		!bytes.Equal(req.PriorState.MsgPack, req.ProposedNewState.MsgPack) || !t.load(ctx) {
		return nil
	}
	prior, err := req.PriorState.Unmarshal(t.typ)
	if err != nil || prior.IsNull() || !prior.IsFullyKnown() {
		return nil
	}
	if !t.plan(ctx, configured.data, tfsdk.State{Raw: prior, Schema: t.schema}) {
		return nil
	}
	u.served.Add(1)
	identity := req.PriorIdentity
	if identity == nil {
		identity = t.nullIdentity
	}
	return &tfprotov6.PlanResourceChangeResponse{
		PlannedState:    req.ProposedNewState,
		PlannedPrivate:  req.PriorPrivate,
		PlannedIdentity: identity,
	}
}

type configuredSlotKey struct{}

// configuredSlot receives the provider's configuration from Configure.
type configuredSlot struct {
	data any
}

// OfferConfigured hands data, the provider's configuration, to the server
// whose ConfigureProvider is running, if it asked for it: the provider's
// Configure calls it last. The server gives it to every PlanUnchanged.
func OfferConfigured(ctx context.Context, data any) {
	if slot, ok := ctx.Value(configuredSlotKey{}).(*configuredSlot); ok {
		slot.data = data
	}
}
