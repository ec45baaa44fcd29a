package provider

import (
	"context"
	"iter"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// List data sources: each reads the objects its filters select, following
// the API's pages to the end, into a computed "id" (a hash of the
// filters) and a computed list "items" (readList writes it one item at a
// time). A type declares its list data source in its own
// *_data_source.go file (a listDataSourceDeclaration given to
// newListDataSource); listDataSource is the data source of every
// declaration.

// listDataSourceDeclaration declares a list data source whose objects T
// are listed by the client's query Q.
type listDataSourceDeclaration[Q, T any] struct {
	// typeName is the data source's name, platform_<name>; <name> names
	// the items in messages, with spaces ("fiat accounts"), and keys the
	// hash of the filters that is the state's id.
	typeName string
	// description is the data source's schema description.
	description string
	// filters are the data source's arguments, read into the query.
	filters listFilters[Q]
	// shape is the shape of one item.
	shape objectShape[T]
	// items is the description of the computed items attribute.
	items string
	// defaults, when set, fills in what the filters leave unset, before
	// the query is hashed into the id and sent.
	defaults func(q *Q)
	// list is the client's list of the objects q selects (a method
	// expression of the client, such as (*client.Client).FiatAccounts).
	list func(c *client.Client, ctx context.Context, q Q) iter.Seq2[*T, error]
	// validators refuse at validation the configurations the service
	// refuses.
	validators []datasource.ConfigValidator
}

// listDataSource is the list data source of a declaration.
type listDataSource[Q, T any] struct {
	d    *listDataSourceDeclaration[Q, T]
	data *providerData
}

var (
	_ datasource.DataSourceWithConfigure        = (*listDataSource[any, any])(nil)
	_ datasource.DataSourceWithConfigValidators = (*listDataSource[any, any])(nil)
)

// newListDataSource is the list data source of the declaration d.
func newListDataSource[Q, T any](d *listDataSourceDeclaration[Q, T]) datasource.DataSource {
	return &listDataSource[Q, T]{d: d}
}

// name is the data source's name without its platform_ prefix
// ("fiat_accounts").
func (l *listDataSource[Q, T]) name() string { return strings.TrimPrefix(l.d.typeName, "platform_") }

func (l *listDataSource[Q, T]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + l.name()
}

func (l *listDataSource[Q, T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: l.d.description,
		Attributes: l.d.filters.dataSourceAttributes(map[string]schema.Attribute{
			"id":    listIDAttribute(),
			"items": l.d.shape.listAttribute(l.d.items),
		}),
	})
}

func (l *listDataSource[Q, T]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return l.d.validators
}

func (l *listDataSource[Q, T]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *listDataSource[Q, T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if l.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q Q
	none := l.d.filters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if l.d.defaults != nil {
		l.d.defaults(&q)
	}
	readList(ctx, req, resp, filtersID(l.name(), q), l.d.shape, l.d.list(l.data.client, ctx, q), none,
		strings.ReplaceAll(l.name(), "_", " "))
}
