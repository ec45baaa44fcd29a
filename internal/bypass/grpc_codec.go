package bypass

import (
	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The state of a large list read is one MessagePack buffer (see
// ReadList). gRPC's proto codec marshals a response into a new buffer
// of its size, so that for a moment the process holds the state twice:
// 100,000 fiat accounts are 68 MB of state. stateCodec sends such a state
// from the provider's own buffer instead: the bytes on the wire are a
// valid encoding of the same message (a field's place in an encoding is
// free), and the process holds the state once.

// largeState is the size from which a response's state is sent from its
// own buffer.
const largeState = 1 << 20

// stateCodec is gRPC's proto codec, except for the responses that carry a
// state of at least largeState bytes.
type stateCodec struct {
	encoding.CodecV2
}

// useStateCodec makes stateCodec the proto codec of the process's gRPC
// server. main calls it (through TuneRuntime) before serving.
func useStateCodec() {
	base := encoding.GetCodecV2(grpcproto.Name)
	if base == nil {
		return
	}
	if _, done := base.(stateCodec); done {
		return
	}
	encoding.RegisterCodecV2(stateCodec{base})
}

func (c stateCodec) Name() string { return grpcproto.Name }

// Marshal encodes v as gRPC's codec does; when v has a field state (a
// DynamicValue) whose msgpack holds at least largeState bytes, it encodes
// everything else and then that field, with msgpack's bytes as the last
// buffer of the slice, not copied.
func (c stateCodec) Marshal(v any) (mem.BufferSlice, error) {
	var m proto.Message
	switch v := v.(type) {
	case protoadapt.MessageV1:
		m = protoadapt.MessageV2Of(v)
	case protoadapt.MessageV2:
		m = v
	}
	if m == nil {
		return c.CodecV2.Marshal(v)
	}
	msg := m.ProtoReflect()
	stateField := msg.Descriptor().Fields().ByName("state")
	if stateField == nil || stateField.Kind() != protoreflect.MessageKind || stateField.IsList() || !msg.Has(stateField) {
		return c.CodecV2.Marshal(v)
	}
	state := msg.Get(stateField).Message()
	bytesField := state.Descriptor().Fields().ByName("msgpack")
	if bytesField == nil || bytesField.Kind() != protoreflect.BytesKind || bytesField.IsList() {
		return c.CodecV2.Marshal(v)
	}
	b := state.Get(bytesField).Bytes()
	if len(b) < largeState {
		return c.CodecV2.Marshal(v)
	}
	// The message without its state, and the state without its msgpack:
	// shallow copies, which share every value with v.
	rest, stateRest := msg.New(), state.New()
	msg.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
		if fd != stateField {
			rest.Set(fd, val)
		}
		return true
	})
	state.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
		if fd != bytesField {
			stateRest.Set(fd, val)
		}
		return true
	})
	head, err := proto.Marshal(rest.Interface())
	if err != nil {
		return nil, err
	}
	stateHead, err := proto.Marshal(stateRest.Interface())
	if err != nil {
		return nil, err
	}
	bytesTag := protowire.AppendVarint(protowire.AppendTag(nil, bytesField.Number(), protowire.BytesType), uint64(len(b)))
	head = protowire.AppendTag(head, stateField.Number(), protowire.BytesType)
	head = protowire.AppendVarint(head, uint64(len(stateHead)+len(bytesTag)+len(b)))
	head = append(head, stateHead...)
	head = append(head, bytesTag...)
	return mem.BufferSlice{mem.SliceBuffer(head), mem.SliceBuffer(b)}, nil
}
