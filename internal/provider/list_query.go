package provider

import (
	"context"
	"iter"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

// List resources (Terraform 1.14+): `terraform query` finds the objects of
// a type that exist at the service (the money flows' transfers, fiat
// deposit instructions, fiat accounts, addresses, rules and profiles), and
// `-generate-config-out` writes configuration with an import block by
// identity for each. Applying that configuration imports them: nothing is
// sent. A type declares its list resource in its own file (a
// listDeclaration given to newListResource); listResource is the list
// resource of every declaration.

// listDeclaration declares the list resource of a type whose objects T
// are listed by the client's query Q.
type listDeclaration[Q, T any] struct {
	// typeName is the type's name, platform_<type>.
	typeName string
	// description is the list resource's schema description.
	description string
	// filters are the list resource's arguments, read into the query.
	filters listFilters[Q]
	// limit is the query's cap on the objects listed, set to Terraform's
	// limit (0: none).
	limit func(q *Q) *int
	// list is the client's list of the objects q selects (a method
	// expression of the client, such as (*client.Client).Profiles).
	list func(c *client.Client, ctx context.Context, q Q) iter.Seq2[*T, error]
	// inFull, when set, reads each listed object in full when Terraform
	// asks for the objects' state: the list leaves out what their
	// configuration needs.
	inFull func(ctx context.Context, c *client.Client, items iter.Seq2[*T, error]) iter.Seq2[*T, error]
	// describe is the model of an object, its id and its display name.
	describe func(*T) (model shapedWriter, id, display string)
	// reject, when set, says why an object is not one of the type (see
	// listResults).
	reject func(*T) string
}

// listResource is the list resource of a declaration.
type listResource[Q, T any] struct {
	d    *listDeclaration[Q, T]
	data *providerData
}

var _ list.ListResourceWithConfigure = (*listResource[any, any])(nil)

// newListResource is the list resource of the declaration d.
func newListResource[Q, T any](d *listDeclaration[Q, T]) list.ListResource {
	return &listResource[Q, T]{d: d}
}

func (l *listResource[Q, T]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(l.d.typeName, "platform")
}

func (l *listResource[Q, T]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *listResource[Q, T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: l.d.description,
		Attributes:          l.d.filters.listResourceAttributes(),
	}
}

func (l *listResource[Q, T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var q Q
	*l.d.limit(&q) = int(req.Limit)
	none := l.d.filters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	items := l.d.list(l.data.client, ctx, q)
	if req.IncludeResource && l.d.inFull != nil {
		items = l.d.inFull(ctx, l.data.client, items)
	}
	stream.Results = listResults(ctx, req, items, l.d.describe, l.d.reject)
}

// listReady reports whether a list is to be read: not when the
// configuration has errors or the provider is not configured (the stream
// carries the diagnostics), nor when the filters match nothing (an empty
// array filter: no results and no request, as in the list data sources).
func listReady(data *providerData, diags *diag.Diagnostics, none bool, stream *list.ListResultsStream) bool {
	if !diags.HasError() && data == nil {
		notConfigured(diags)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(*diags)
		return false
	}
	if none {
		stream.Results = list.NoListResults
		return false
	}
	return true
}

// listResults turns the objects of a client list into list results: the
// identity of each, its display name, and its state when Terraform asks
// for it.
//
// reject, when set, says why an item is not one of the type (the answer is
// not trusted to have applied its filters): such an item is skipped with a
// warning, so that configuration generated from the results never imports
// it.
func listResults[T any](ctx context.Context, req list.ListRequest, items iter.Seq2[*T, error], describe func(*T) (model shapedWriter, id, display string), reject func(*T) string) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		bypass.LimitMemoryForLists()
		for it, err := range items {
			res := req.NewListResult(ctx)
			if err != nil {
				res.Diagnostics.AddError(failure("Listing failed", err), err.Error())
				push(res)
				return
			}
			if reject != nil {
				if why := reject(it); why != "" {
					var skipped list.ListResult
					skipped.Diagnostics.AddWarning("Result skipped", why)
					if !push(skipped) {
						return
					}
					continue
				}
			}
			model, id, display := describe(it)
			res.DisplayName = shown(display)
			res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root("id"), id)...)
			if req.IncludeResource {
				res.Diagnostics.Append(model.set(ctx, res.Resource, res.Resource.Schema)...)
			}
			if !push(res) {
				return
			}
		}
	}
}
