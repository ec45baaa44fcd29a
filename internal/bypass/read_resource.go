package bypass

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The refresh of an object in state.
//
// The framework's ReadResource walks the whole value four times around the
// resource's Read: at decoding (empty collection blocks to null), for
// semantic equality, for write-only attributes and at encoding (null
// collection blocks to empty), and each step of each walk looks the path
// up in the schema, which copies the schema's map of attributes. For a
// schema without blocks, without write-only attributes and whose every
// type is a plain framework type (no semantic equality), none of the walks
// can change anything. For the resources that plan their unchanged
// objects themselves (PlannerOf), whose schemas are such, the server reads
// the object itself: the state decoded with the schema's type read once,
// the resource configured and read as the framework does, its identity
// checked as the framework does, the state, identity and private data
// encoded as the framework does. Anything else (another resource, a
// schema with a block, a default, a write-only attribute or a custom type, private
// data of the framework's own such as an import's, private data that is
// not well formed, a provider not configured or that may defer) goes
// through the framework. TestEquivalenceReadResource, in the provider,
// compares the two answers.

// readTypes are the resource types of p whose reads the server answers:
// those plannerOf gives a PlanUnchanged, by name; their schemas are read
// on first use.
func readTypes(ctx context.Context, p provider.Provider, plannerOf PlannerOf) map[string]*readType {
	byType := map[string]*readType{}
	if plannerOf == nil {
		return byType
	}
	if _, ok := p.(provider.ProviderWithMetaSchema); ok {
		// The framework decodes the provider's meta for every read.
		return byType
	}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		if plannerOf(r) == nil {
			continue
		}
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
		byType[m.TypeName] = &readType{newResource: newResource}
	}
	return byType
}

// readType is one resource type whose reads the server answers.
type readType struct {
	newResource func() resource.Resource
	once        sync.Once
	schema      schema.Schema
	typ         tftypes.Type
	identity    *identityschema.Schema
	ityp        tftypes.Type
	mutableID   bool
	// semantic are the string attributes whose values have a semantic
	// equality, by name.
	semantic map[string]basetypes.StringTypable
	ok       bool
	// shape is the schema's type as the upgrade of a stored state walks
	// it (upgrade_state.go), made on first use; nil when it holds a type
	// left to the framework.
	shapeOnce sync.Once
	shape     *jsonShape
}

// load reads the schemas of t once and reports whether its reads can skip
// the framework's walks.
func (t *readType) load(ctx context.Context, providerTypeName string) bool {
	t.once.Do(func() {
		r := t.newResource()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		if s.Diagnostics.HasError() || withDefault(s.Schema) {
			return
		}
		plain, semantic := plainSchema(s.Schema)
		if !plain {
			return
		}
		t.semantic = semantic
		t.schema, t.typ, t.mutableID = s.Schema, s.Schema.Type().TerraformType(ctx), m.ResourceBehavior.MutableIdentity
		if withIdentity, ok := r.(resource.ResourceWithIdentity); ok {
			var is resource.IdentitySchemaResponse
			withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &is)
			if is.Diagnostics.HasError() {
				return
			}
			t.identity, t.ityp = &is.IdentitySchema, is.IdentitySchema.Type().TerraformType(ctx)
		}
		t.ok = true
	})
	return t.ok
}

// plainSchema reports whether s has no block, no write-only attribute and
// only the framework's own types, whose values have no semantic equality,
// but for string attributes at its root, whose types semantic gets, by
// name, when their values have one.
func plainSchema(s schema.Schema) (ok bool, semantic map[string]basetypes.StringTypable) {
	if len(s.Blocks) > 0 {
		return false, nil
	}
	semantic = map[string]basetypes.StringTypable{}
	for name, a := range s.Attributes {
		if st, ok := a.GetType().(basetypes.StringTypable); ok && !a.IsWriteOnly() {
			if _, plain := st.(basetypes.StringType); !plain {
				if _, ok := st.ValueType(context.Background()).(basetypes.StringValuableWithSemanticEquals); ok {
					semantic[name] = st
				}
				continue
			}
		}
		if !plainAttribute(a) {
			return false, nil
		}
	}
	return true, semantic
}

func plainAttribute(a schema.Attribute) bool {
	if a.IsWriteOnly() || !plainType(a.GetType()) {
		return false
	}
	if n, ok := a.(schema.NestedAttribute); ok {
		for _, na := range n.GetNestedObject().GetAttributes() {
			sa, ok := na.(schema.Attribute)
			if !ok || !plainAttribute(sa) {
				return false
			}
		}
	}
	return true
}

// plainType reports whether t is one of the framework's own types, as are
// its elements and attributes.
func plainType(t attr.Type) bool {
	switch t := t.(type) {
	case basetypes.StringType, basetypes.BoolType, basetypes.NumberType, basetypes.Int64Type,
		basetypes.Int32Type, basetypes.Float64Type, basetypes.Float32Type:
		return true
	case basetypes.ObjectType:
		for _, at := range t.AttrTypes {
			if !plainType(at) {
				return false
			}
		}
		return true
	case basetypes.ListType:
		return plainType(t.ElemType)
	case basetypes.SetType:
		return plainType(t.ElemType)
	case basetypes.MapType:
		return plainType(t.ElemType)
	}
	return false
}

// read answers the refresh req when its resource type is one of reads'
// and nothing in it needs the framework; nil leaves it to the framework.
func (s *Server) read(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	t, ok := s.reads[req.TypeName]
	configured := s.unchanged.configured.Load()
	if !ok || configured == nil || req.CurrentState == nil || req.CurrentState.JSON != nil || req.ProviderMeta != nil ||
		(req.CurrentIdentity != nil && req.CurrentIdentity.IdentityData == nil) || !t.load(ctx, s.providerTypeName) {
		return nil
	}
	current, err := req.CurrentState.Unmarshal(t.typ)
	if err != nil {
		return nil
	}
	var identity *tfsdk.ResourceIdentity
	switch {
	case req.CurrentIdentity != nil && t.identity == nil:
		return nil
	case req.CurrentIdentity != nil:
		v, err := req.CurrentIdentity.IdentityData.Unmarshal(t.ityp)
		if err != nil {
			return nil
		}
		identity = &tfsdk.ResourceIdentity{Schema: *t.identity, Raw: v}
	case t.identity != nil:
		identity = &tfsdk.ResourceIdentity{Schema: *t.identity, Raw: tftypes.NewValue(t.ityp, nil)}
	}
	private, ok := providerPrivate(ctx, req.Private, resource.ReadRequest{}.Private)
	if !ok {
		return nil
	}

	resp := &tfprotov6.ReadResourceResponse{}
	var diags diag.Diagnostics
	r := t.newResource()
	if withConfigure, ok := r.(resource.ResourceWithConfigure); ok {
		var cr resource.ConfigureResponse
		withConfigure.Configure(ctx, resource.ConfigureRequest{ProviderData: configured.data}, &cr)
		diags.Append(cr.Diagnostics...)
		if diags.HasError() {
			// The framework answers no state, identity or private data.
			resp.Diagnostics = protoDiagnostics(ctx, diags)
			return resp
		}
	}
	readReq := resource.ReadRequest{
		State:   tfsdk.State{Schema: t.schema, Raw: current.Copy()},
		Private: private,
	}
	readResp := resource.ReadResponse{
		State:   tfsdk.State{Schema: t.schema, Raw: current.Copy()},
		Private: private,
	}
	if req.ClientCapabilities != nil {
		readReq.ClientCapabilities.DeferralAllowed = req.ClientCapabilities.DeferralAllowed
	}
	if identity != nil {
		readReq.Identity = &tfsdk.ResourceIdentity{Schema: identity.Schema, Raw: identity.Raw.Copy()}
		readResp.Identity = &tfsdk.ResourceIdentity{Schema: identity.Schema, Raw: identity.Raw.Copy()}
	}
	r.Read(ctx, readReq, &readResp)
	diags = readResp.Diagnostics
	if readResp.Deferred != nil {
		resp.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(readResp.Deferred.Reason)}
	}
	if !diags.HasError() {
		diags.Append(checkReadIdentity(t, identity, readResp.Identity)...)
	}
	if !diags.HasError() {
		diags.Append(t.semanticEquality(ctx, current, &readResp.State)...)
	}
	resp.Diagnostics = protoDiagnostics(ctx, diags)

	state, err := tfprotov6.NewDynamicValue(t.typ, readResp.State.Raw)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, protoDiagnostics(ctx, encodingError("State", "state", err))...)
	} else {
		resp.NewState = &state
	}
	if readResp.Identity != nil {
		id, err := tfprotov6.NewDynamicValue(t.ityp, readResp.Identity.Raw)
		if err != nil {
			resp.Diagnostics = append(resp.Diagnostics, protoDiagnostics(ctx, encodingError("Resource Identity", "resource identity", err))...)
		} else {
			resp.NewIdentity = &tfprotov6.ResourceIdentityData{IdentityData: &id}
		}
	}
	b, d := privateBytes(readResp.Private)
	resp.Diagnostics = append(resp.Diagnostics, protoDiagnostics(ctx, d)...)
	resp.Private = b
	return resp
}

// semanticEquality is the framework's semantic equality after a read: each
// attribute of t.semantic whose new value is semantically equal to the
// one in state keeps the one in state. After an error the state is the
// read's.
func (t *readType) semanticEquality(ctx context.Context, prior tftypes.Value, state *tfsdk.State) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(t.semantic) == 0 || prior.IsNull() || !prior.IsKnown() || state.Raw.IsNull() || !state.Raw.IsKnown() {
		return diags
	}
	var priorAttrs, newAttrs map[string]tftypes.Value
	if prior.As(&priorAttrs) != nil || state.Raw.As(&newAttrs) != nil {
		return diags
	}
	changed := false
	for name, typ := range t.semantic {
		pv, nv := priorAttrs[name], newAttrs[name]
		if pv.IsNull() || !pv.IsKnown() || nv.IsNull() || !nv.IsKnown() {
			continue
		}
		p, err := typ.ValueFromTerraform(ctx, pv)
		if err != nil {
			return diags
		}
		n, err := typ.ValueFromTerraform(ctx, nv)
		if err != nil {
			return diags
		}
		ps, ok := p.(basetypes.StringValuableWithSemanticEquals)
		if !ok {
			continue
		}
		ns, ok := n.(basetypes.StringValuableWithSemanticEquals)
		if !ok {
			continue
		}
		use, d := ns.StringSemanticEquals(ctx, ps)
		diags.Append(d...)
		if diags.HasError() {
			return diags
		}
		if use && !pv.Equal(nv) {
			newAttrs[name], changed = pv, true
		}
	}
	if changed {
		state.Raw = tftypes.NewValue(state.Raw.Type(), newAttrs)
	}
	return diags
}

// checkReadIdentity is the framework's check of the identity a read
// answered against the identity in state.
func checkReadIdentity(t *readType, current, answered *tfsdk.ResourceIdentity) diag.Diagnostics {
	var diags diag.Diagnostics
	if answered != nil {
		if t.identity == nil {
			diags.AddError("Unexpected Read Response",
				"An unexpected error was encountered when creating the read response. New identity data was returned by the provider read operation, but the resource does not indicate identity support.\n\n"+
					"This is always a problem with the provider and should be reported to the provider developer.")
			return diags
		}
		if !t.mutableID && !current.Raw.IsFullyNull() && !current.Raw.Equal(answered.Raw) {
			diags.AddError("Unexpected Identity Change",
				"During the read operation, the Terraform Provider unexpectedly returned a different identity than the previously stored one.\n\n"+
					"This is always a problem with the provider and should be reported to the provider developer.\n\n"+
					fmt.Sprintf("Current Identity: %s\n\n", current.Raw.String())+
					fmt.Sprintf("New Identity: %s", answered.Raw.String()))
			return diags
		}
	}
	if t.identity != nil && answered.Raw.IsFullyNull() {
		diags.AddError("Missing Resource Identity After Read",
			"The Terraform Provider unexpectedly returned no resource identity data after having no errors in the resource read. "+
				"This is always an issue in the Terraform Provider and should be reported to the provider developers.")
	}
	return diags
}

// encodingError is the framework's error for a value it cannot encode.
func encodingError(title, description string, err error) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.AddError("Unable to Convert "+title,
		"An unexpected error was encountered when converting the "+description+" to the protocol type. "+
			"This is always an issue in terraform-plugin-framework used to implement the provider and should be reported to the provider developers.\n\n"+
			"Please report this to the provider developer:\n\n"+
			"Unable to create DynamicValue: "+err.Error())
	return diags
}

// privateData is the framework's type of a resource's private data
// (resource.ReadRequest.Private), internal to the framework: the functions
// below get it by inference.
type privateData[T any] interface {
	*T
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// providerPrivate is the provider's private data of raw, as the framework
// decodes it for a read; false when raw is not what the framework wrote
// for the provider alone (keys of the framework's own, such as an
// import's, values that are not JSON): the framework then reads. like
// names the type.
func providerPrivate[T any, P privateData[T]](ctx context.Context, raw []byte, like P) (P, bool) {
	_ = like
	p := P(new(T))
	// An empty map, as the framework's EmptyProviderData.
	if d := p.SetKey(ctx, "empty", []byte("0")); d.HasError() {
		return nil, false
	}
	if d := p.SetKey(ctx, "empty", nil); d.HasError() {
		return nil, false
	}
	if len(raw) == 0 {
		return p, true
	}
	var m map[string][]byte
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	for k, v := range m {
		if strings.HasPrefix(k, ".") || len(v) == 0 || !utf8.Valid(v) || !json.Valid(v) {
			return nil, false
		}
		if d := p.SetKey(ctx, k, v); d.HasError() {
			return nil, false
		}
	}
	return p, true
}

// privateBytes is the private data p as the framework encodes it into a
// response: nil when it holds nothing, otherwise its keys in JSON.
func privateBytes(p any) ([]byte, diag.Diagnostics) {
	data := privateMap(p)
	merged := make(map[string][]byte, len(data))
	for k, v := range data {
		if len(v) > 0 {
			merged[k] = v
		}
	}
	if len(data) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(merged)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Error Encoding Private State",
			fmt.Sprintf("An error was encountered when encoding private state: %s.\n\n"+
				"This is always a problem with Terraform or terraform-plugin-framework. Please report this to the provider developer.", err))
		return nil, diags
	}
	return b, nil
}

// privateMap reads the keys of the framework's private data p, which it
// keeps unexported.
func privateMap(p any) map[string][]byte {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil
	}
	f := v.Elem().FieldByName("data")
	if !f.IsValid() || f.Kind() != reflect.Map || f.IsNil() {
		return nil
	}
	out := make(map[string][]byte, f.Len())
	for it := f.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().Bytes()
	}
	return out
}

// protoDiagnostics are diags as the framework sends them.
func protoDiagnostics(ctx context.Context, diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{Detail: d.Detail(), Summary: d.Summary()}
		switch d.Severity() {
		case diag.SeverityError:
			pd.Severity = tfprotov6.DiagnosticSeverityError
		case diag.SeverityWarning:
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		default:
			pd.Severity = tfprotov6.DiagnosticSeverityInvalid
		}
		if withPath, ok := d.(diag.DiagnosticWithPath); ok {
			var pathDiags diag.Diagnostics
			pd.Attribute, pathDiags = tfAttributePath(ctx, withPath.Path())
			if pathDiags.HasError() {
				out = append(out, protoDiagnostics(ctx, pathDiags)...)
			}
		}
		out = append(out, pd)
	}
	return out
}

// tfAttributePath is the framework's conversion of a path.
func tfAttributePath(ctx context.Context, p path.Path) (*tftypes.AttributePath, diag.Diagnostics) {
	var steps []tftypes.AttributePathStep
	for _, step := range p.Steps() {
		var s tftypes.AttributePathStep
		var err error
		switch step := step.(type) {
		case path.PathStepAttributeName:
			s = tftypes.AttributeName(string(step))
		case path.PathStepElementKeyInt:
			s = tftypes.ElementKeyInt(int64(step))
		case path.PathStepElementKeyString:
			s = tftypes.ElementKeyString(string(step))
		case path.PathStepElementKeyValue:
			var v tftypes.Value
			v, err = step.ToTerraformValue(ctx)
			if err != nil {
				err = fmt.Errorf("unable to convert attr.Value (%s) to tftypes.Value: %w", step.Value.String(), err)
			}
			s = tftypes.ElementKeyValue(v)
		default:
			err = fmt.Errorf("unknown path.PathStep: %#v", step)
		}
		if err != nil {
			return nil, diag.Diagnostics{diag.NewErrorDiagnostic("Unable to Convert Attribute Path",
				"An unexpected error occurred while trying to convert an attribute path. "+
					"This is either an error in terraform-plugin-framework or a custom attribute type used by the provider. "+
					"Please report the following to the provider developers.\n\n"+
					fmt.Sprintf("Attribute Path: %s\n", p.String())+
					fmt.Sprintf("Original Error: %s", err))}
		}
		steps = append(steps, s)
	}
	return tftypes.NewAttributePathWithSteps(steps), nil
}
