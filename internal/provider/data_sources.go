package provider

import (
	"context"
	"iter"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Declared data sources. A data source that reads one object of the
// service declares its name, schema and read (an objectDataSourceDeclaration
// given to newObjectDataSource); a list data source declares its name,
// filters, item shape and the client's iterator (a
// listDataSourceDeclaration given to newListDataSource). Each is declared
// in its own *_data_source.go file; objectDataSource and listDataSource
// are the data sources of every declaration.

// declaredDataSource is what every declared data source has: its name and
// the provider's configured data.
type declaredDataSource struct {
	// typeName is the data source's name, platform_<name>.
	typeName string
	data     *providerData
}

// name is the data source's name without its platform_ prefix
// ("fiat_accounts").
func (b *declaredDataSource) name() string { return strings.TrimPrefix(b.typeName, "platform_") }

func (b *declaredDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name()
}

func (b *declaredDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// objectDataSourceDeclaration declares a data source that reads one object
// of the service (or one answer, such as a profile's balances).
type objectDataSourceDeclaration struct {
	// typeName is the data source's name, platform_<name>.
	typeName string
	// description is the data source's schema description.
	description string
	// attributes are the schema's attributes: the object's shape with the
	// arguments that name the object put over it.
	attributes func() map[string]schema.Attribute
	// validators refuse at validation the configurations that name no
	// object.
	validators []datasource.ConfigValidator
	// read reads the object the configuration names, through c, into the
	// state; a missing object is an error on the argument that named it.
	read func(ctx context.Context, c *client.Client, req datasource.ReadRequest, resp *datasource.ReadResponse)
}

// objectDataSource is the data source of an objectDataSourceDeclaration.
type objectDataSource struct {
	declaredDataSource
	d *objectDataSourceDeclaration
}

var (
	_ datasource.DataSourceWithConfigure        = (*objectDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*objectDataSource)(nil)
)

// newObjectDataSource is the data source of the declaration d.
func newObjectDataSource(d *objectDataSourceDeclaration) datasource.DataSource {
	return &objectDataSource{declaredDataSource: declaredDataSource{typeName: d.typeName}, d: d}
}

func (o *objectDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{MarkdownDescription: o.d.description, Attributes: o.d.attributes()}
}

func (o *objectDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return o.d.validators
}

func (o *objectDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if o.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	o.d.read(ctx, o.data.client, req, resp)
}

// listDataSourceDeclaration declares a list data source whose objects T
// are listed by the client's query Q. It reads the objects its filters
// select, following the API's pages to the end, into a computed "id" (a
// hash of the filters) and a computed list "items" (readList writes it
// one item at a time).
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
	// validators refuse at validation the filters the service does not
	// combine.
	validators []datasource.ConfigValidator
}

// listDataSource is the data source of a listDataSourceDeclaration.
type listDataSource[Q, T any] struct {
	declaredDataSource
	d *listDataSourceDeclaration[Q, T]
}

var (
	_ datasource.DataSourceWithConfigure        = (*listDataSource[any, any])(nil)
	_ datasource.DataSourceWithConfigValidators = (*listDataSource[any, any])(nil)
)

// newListDataSource is the list data source of the declaration d.
func newListDataSource[Q, T any](d *listDataSourceDeclaration[Q, T]) datasource.DataSource {
	return &listDataSource[Q, T]{declaredDataSource: declaredDataSource{typeName: d.typeName}, d: d}
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
