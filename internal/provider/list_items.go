package provider

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// Item shapes: the schema and the encoder of list items, from one list of
// fields.

// itemField is one attribute of a list item: its schema and how to write
// it from the client's value.
type itemField[T any] struct {
	name  string
	attr  schema.Attribute
	write func(w *tfmsgpack.Writer, v *T)
}

// itemShape is the attributes of a list item.
type itemShape[T any] []itemField[T]

// attributes is the schema of the item's attributes.
func (s itemShape[T]) attributes() map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(s))
	for _, f := range s {
		out[f.name] = f.attr
	}
	return out
}

// write writes v as an object, or null when v is nil.
func (s itemShape[T]) write(w *tfmsgpack.Writer, v *T) {
	if v == nil {
		w.Null()
		return
	}
	w.MapHeader(len(s))
	for _, f := range s {
		w.Str(f.name)
		f.write(w, v)
	}
}

// listAttribute is the computed items attribute of the list.
func (s itemShape[T]) listAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject:        schema.NestedAttributeObject{Attributes: s.attributes()},
	}
}

func stringField[T any](name, description string, get func(*T) *string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.StringAttribute{Computed: true, MarkdownDescription: description},
		write: func(w *tfmsgpack.Writer, v *T) { w.StrPtr(get(v)) },
	}
}

func timeField[T any](name, description string, get func(*T) *time.Time) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.StringAttribute{Computed: true, MarkdownDescription: description + " (RFC 3339)."},
		write: func(w *tfmsgpack.Writer, v *T) { w.TimePtr(get(v)) },
	}
}

func stringListField[T any](name, description string, get func(*T) []string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		write: func(w *tfmsgpack.Writer, v *T) { w.StringList(get(v)) },
	}
}

func stringMapField[T any](name, description string, get func(*T) map[string]string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		write: func(w *tfmsgpack.Writer, v *T) { w.StringMap(get(v)) },
	}
}

// anyMapField is a map of free-form values, rendered as a map of strings
// as anyMapValue renders one: strings as they are, other values as JSON,
// null when empty.
func anyMapField[T any](name, description string, get func(*T) map[string]any) itemField[T] {
	return itemField[T]{
		name: name,
		attr: schema.MapAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: description + " Values that are not strings are rendered as JSON.",
		},
		write: func(w *tfmsgpack.Writer, v *T) { w.AnyMap(get(v)) },
	}
}

// objectField is a nested object, null when get returns nil.
func objectField[T, U any](name, description string, get func(*T) *U, shape itemShape[U]) itemField[T] {
	return itemField[T]{
		name: name,
		attr: schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: description,
			Attributes:          shape.attributes(),
		},
		write: func(w *tfmsgpack.Writer, v *T) { shape.write(w, get(v)) },
	}
}

// sharedObjectField is a nested object whose schema is one of the objects
// shared with fiat deposit instructions (a computedAttr); shape must have
// been built from the same computedAttr (shapeOf).
func sharedObjectField[T, U any](name string, a computedAttr, get func(*T) *U, shape itemShape[U]) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  a.dataSourceAttribute(),
		write: func(w *tfmsgpack.Writer, v *T) { shape.write(w, get(v)) },
	}
}

// shapeOf is the shape of the shared object a, written by one writer per
// attribute of a. It panics when the writers and the attributes of a do not
// name the same attributes: a programming error, caught by any test.
func shapeOf[T any](a computedAttr, writers map[string]func(*tfmsgpack.Writer, *T)) itemShape[T] {
	if a.nested == nil || len(writers) != len(a.nested) {
		panic(fmt.Sprintf("shapeOf: %d writers for %d attributes", len(writers), len(a.nested)))
	}
	shape := make(itemShape[T], 0, len(writers))
	for name, sub := range a.nested {
		write, ok := writers[name]
		if !ok {
			panic("shapeOf: no writer for attribute " + name)
		}
		shape = append(shape, itemField[T]{name: name, attr: sub.dataSourceAttribute(), write: write})
	}
	slices.SortFunc(shape, func(x, y itemField[T]) int { return strings.Compare(x.name, y.name) })
	return shape
}

// writeString and writeObject are writers for shapeOf.
func writeString[T any](get func(*T) *string) func(*tfmsgpack.Writer, *T) {
	return func(w *tfmsgpack.Writer, v *T) { w.StrPtr(get(v)) }
}

func writeObject[T, U any](get func(*T) *U, shape itemShape[U]) func(*tfmsgpack.Writer, *T) {
	return func(w *tfmsgpack.Writer, v *T) { shape.write(w, get(v)) }
}
