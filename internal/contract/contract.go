// Package contract holds the service's published API reference
// (openapi.json, the service's OpenAPI 3.0 document, kept as published)
// and checks requests and answers against it with kin-openapi: a request's
// method, path, parameters (no parameter the operation does not have) and
// body; an answer's body for its status; the token's scope against the
// operation's security requirement. The tests of the client, the emulator
// and the provider use it: the emulator reports every exchange under /v2
// (emulator.Options.Observe) to a Checker, and a test fails on any
// violation.
package contract

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/platform/terraform-provider-platform/internal/exchange"
)

//go:embed openapi.json
var referenceJSON []byte

// serverURL is the reference's production server: the requests checked are
// put on it, so that the router matches them whatever host served them.
const serverURL = "https://api.example.invalid/v2"

// Reference is the published reference, loaded and routed. Its object
// schemas of fixed properties admit no other property (closeSchemas): a
// renamed or invented field is a violation. Its paths, operations and
// security requirements are the reference's as published.
type Reference struct {
	doc    *openapi3.T
	router routers.Router
}

var (
	loadOnce sync.Once
	loaded   *Reference
	loadErr  error
)

// Load returns the reference, loaded once per process.
func Load() (*Reference, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Reference, error) {
	doc, err := openapi3.NewLoader().LoadFromData(referenceJSON)
	if err != nil {
		return nil, fmt.Errorf("loading the published reference: %w", err)
	}
	closeSchemas(doc)
	// The reference's examples are not all of its own schemas (an example
	// of CreateFiatAccountRequest has no routing_number_type): they are
	// not held against them.
	router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	if err != nil {
		return nil, fmt.Errorf("routing the reference: %w", err)
	}
	return &Reference{doc: doc, router: router}, nil
}

// closeSchemas makes every object schema with properties and no
// additionalProperties of its own admit no other property. Schemas that
// take part in an allOf keep theirs open: each part sees only its own
// properties.
func closeSchemas(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema, inAllOf bool)
	walkRef := func(r *openapi3.SchemaRef, inAllOf bool) {
		if r != nil && r.Value != nil {
			walk(r.Value, inAllOf)
		}
	}
	walk = func(s *openapi3.Schema, inAllOf bool) {
		if seen[s] {
			return
		}
		seen[s] = true
		if !inAllOf && len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			no := false
			s.AdditionalProperties.Has = &no
		}
		for _, p := range s.Properties {
			walkRef(p, false)
		}
		walkRef(s.Items, false)
		walkRef(s.AdditionalProperties.Schema, false)
		for _, x := range s.AllOf {
			walkRef(x, true)
		}
		for _, x := range s.OneOf {
			walkRef(x, false)
		}
		for _, x := range s.AnyOf {
			walkRef(x, false)
		}
	}
	for _, s := range doc.Components.Schemas {
		walkRef(s, false)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walkRef(mt.Schema, false)
				}
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for _, mt := range resp.Value.Content {
					walkRef(mt.Schema, false)
				}
			}
		}
	}
}

// Operation is one operation of the reference.
type Operation struct {
	Method string
	// Path is the operation's path under the base URL, with {name} for
	// its parameters, as the reference writes it.
	Path string
	ID   string
	// Scopes are the OAuth2 scopes of its security requirement; nil for
	// a public operation.
	Scopes []string
}

// Operations are every operation of the reference, by path and method.
func (r *Reference) Operations() []Operation {
	var out []Operation
	for path, item := range r.doc.Paths.Map() {
		for method, op := range item.Operations() {
			out = append(out, Operation{Method: method, Path: path, ID: op.OperationID, Scopes: scopesOf(op)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Operation finds the operation of method on path (a path under the base
// URL, with {name} for its parameters).
func (r *Reference) Operation(method, path string) (Operation, bool) {
	item := r.doc.Paths.Find(path)
	if item == nil {
		return Operation{}, false
	}
	op := item.GetOperation(method)
	if op == nil {
		return Operation{}, false
	}
	return Operation{Method: method, Path: path, ID: op.OperationID, Scopes: scopesOf(op)}, true
}

func scopesOf(op *openapi3.Operation) []string {
	if op.Security == nil {
		return nil
	}
	var out []string
	for _, req := range *op.Security {
		for _, scopes := range req {
			out = append(out, scopes...)
		}
	}
	return out
}

// Exchange is one request and its answer, as a server saw them.
type Exchange = exchange.Exchange

// CheckRequest returns what is wrong with the request of ex: an operation
// the reference does not have, a parameter it does not have, a parameter
// or body of another shape, a token without the operation's scope.
func (r *Reference) CheckRequest(ex Exchange) error {
	req, route, params, err := r.route(ex)
	if err != nil {
		return err
	}
	var errs []error
	if extra := unknownQuery(route.Operation, route.PathItem, req.URL.Query()); len(extra) > 0 {
		errs = append(errs, fmt.Errorf("query parameters the operation does not have: %s", strings.Join(extra, ", ")))
	}
	auth := scopeCheck(ex.Scopes)
	if ex.Status == http.StatusUnauthorized || ex.Status == http.StatusForbidden {
		// The server refused the request (a client pinned to other scopes,
		// an expired token, a balance too low): a token without the
		// operation's scope was enforced, not let through. A server whose
		// scopes are the reference's refuses every token without them.
		auth = openapi3filter.NoopAuthenticationFunc
	}
	opts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: auth}
	opts.WithCustomSchemaErrorFunc(schemaError)
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// CheckResponse returns what is wrong with the answer of ex: a body that
// is not of the schema of its status (a status the operation does not
// document is not checked).
func (r *Reference) CheckResponse(ex Exchange) error {
	req, route, params, err := r.route(ex)
	if err != nil {
		// An answer to what is no operation of the reference (a 404 or 405
		// of the server) has no schema; the request is the violation.
		return nil //nolint:nilerr // Checked by CheckRequest.
	}
	if ex.Status >= 200 && ex.Status < 300 && route.Operation.Responses.Status(ex.Status) == nil {
		return fmt.Errorf("status %d is not an answer of the operation (it documents %v)", ex.Status, documented(route.Operation))
	}
	opts := &openapi3filter.Options{MultiError: true}
	opts.WithCustomSchemaErrorFunc(schemaError)
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 ex.Status,
		Header:                 ex.Header,
		Body:                   io.NopCloser(bytes.NewReader(firstItems(ex.Body))),
		Options:                opts,
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// route finds the operation of ex in the reference.
func (r *Reference) route(ex Exchange) (*http.Request, *routers.Route, map[string]string, error) {
	rest, ok := strings.CutPrefix(ex.URL.Path, "/v2")
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s %s: not under /v2", ex.Method, ex.URL.Path)
	}
	u, err := url.Parse(serverURL + rest)
	if err != nil {
		return nil, nil, nil, err
	}
	u.RawQuery = ex.URL.RawQuery
	req, err := http.NewRequestWithContext(context.Background(), ex.Method, u.String(), bytes.NewReader(ex.RequestBody))
	if err != nil {
		return nil, nil, nil, err
	}
	req.Header = ex.RequestHeader.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	route, params, err := r.router.FindRoute(req)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s %s: not an operation of the reference (%w)", ex.Method, ex.URL.Path, err)
	}
	return req, route, params, nil
}

// unknownQuery lists the query keys that are no parameter of the
// operation (or of its path).
func unknownQuery(op *openapi3.Operation, item *openapi3.PathItem, q url.Values) []string {
	known := map[string]bool{}
	for _, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, p := range list {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				known[p.Value.Name] = true
			}
		}
	}
	var out []string
	for k := range q {
		if !known[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// scopeCheck is the authentication of a request whose token carries
// granted: it has one of the scopes of the requirement.
func scopeCheck(granted []string) openapi3filter.AuthenticationFunc {
	return func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
		if len(in.Scopes) == 0 {
			return nil
		}
		for _, s := range in.Scopes {
			if slices.Contains(granted, s) {
				return nil
			}
		}
		return fmt.Errorf("the token's scopes %v hold none of the operation's %v", granted, in.Scopes)
	}
}

// documented lists the statuses an operation documents.
func documented(op *openapi3.Operation) []string {
	var out []string
	for k := range op.Responses.Map() {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// schemaError says where a value breaks its schema and why, without the
// schema itself.
func schemaError(err *openapi3.SchemaError) string {
	where := "/" + strings.Join(err.JSONPointer(), "/")
	return fmt.Sprintf("%s: %s", where, err.Reason)
}

// checkedItems is how many items of a list answer are held against the
// schema: every item has the same schema, and the seeded data varies within
// the first hundred, so a page of a thousand costs a tenth.
const checkedItems = 100

// firstItems is body with its items cut to the first checkedItems, when it
// is a list answer of more; otherwise body as it is.
func firstItems(body []byte) []byte {
	if len(body) < 64<<10 {
		return body
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	var items []json.RawMessage
	if json.Unmarshal(doc["items"], &items) != nil || len(items) <= checkedItems {
		return body
	}
	cut, err := json.Marshal(items[:checkedItems])
	if err != nil {
		return body
	}
	doc["items"] = cut
	out, err := json.Marshal(doc)
	if err != nil {
		return body
	}
	return out
}
