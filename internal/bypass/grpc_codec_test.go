package bypass

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// responseType is a message shaped like tfplugin6's ReadDataSource.Response:
// diagnostics, a DynamicValue state (msgpack, json), and a field after it.
func responseType(t testing.TB) protoreflect.MessageDescriptor {
	t.Helper()
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	bytesT, strT, msgT := descriptorpb.FieldDescriptorProto_TYPE_BYTES.Enum(), descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(), descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("codec_test.proto"), Package: proto.String("codectest"), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("DynamicValue"), Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("msgpack"), Number: proto.Int32(1), Label: opt, Type: bytesT},
				{Name: proto.String("json"), Number: proto.Int32(2), Label: opt, Type: bytesT},
			}},
			{Name: proto.String("Response"), Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("diagnostics"), Number: proto.Int32(1), Label: rep, Type: strT},
				{Name: proto.String("state"), Number: proto.Int32(2), Label: opt, Type: msgT, TypeName: proto.String(".codectest.DynamicValue")},
				{Name: proto.String("deferred"), Number: proto.Int32(3), Label: opt, Type: strT},
			}},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().ByName("Response")
}

// TestEquivalenceStateCodec checks that a response whose state is large is encoded
// as the same message, with the state's bytes sent from its own buffer,
// and that every other message is left to gRPC's codec.
func TestEquivalenceStateCodec(t *testing.T) {
	base := encoding.GetCodecV2(grpcproto.Name)
	codec := stateCodec{base}
	typ := responseType(t)
	for _, size := range []int{0, 10, largeState - 1, largeState, 3 * largeState} {
		msg := dynamicpb.NewMessage(typ)
		diags := msg.Mutable(typ.Fields().ByName("diagnostics")).List()
		diags.Append(protoreflect.ValueOfString("a warning"))
		msg.Set(typ.Fields().ByName("deferred"), protoreflect.ValueOfString("later"))
		b := bytes.Repeat([]byte{0x81, 0xa1, 'x'}, size/3+1)[:size]
		if size > 0 {
			state := msg.Mutable(typ.Fields().ByName("state")).Message()
			state.Set(state.Descriptor().Fields().ByName("msgpack"), protoreflect.ValueOfBytes(b))
		}
		got, err := codec.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := base.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != want.Len() {
			t.Errorf("size %d: %d bytes, gRPC's codec %d", size, got.Len(), want.Len())
		}
		back := dynamicpb.NewMessage(typ)
		if err := proto.Unmarshal(got.Materialize(), back); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !proto.Equal(back, msg) {
			t.Errorf("size %d: decoded %v, want %v", size, back, msg)
		}
		if size < largeState {
			if len(got) != 1 {
				t.Errorf("size %d: %d buffers, want gRPC's codec's one", size, len(got))
			}
			continue
		}
		last := got[len(got)-1].ReadOnlyData()
		if len(got) != 2 || len(last) != size || &last[0] != &b[0] {
			t.Errorf("size %d: the state is not sent from its own buffer (%d buffers, last of %d bytes)", size, len(got), len(last))
		}
	}
	// A message that is not a protocol buffer is the base codec's error.
	if _, err := codec.Marshal(42); err == nil {
		t.Error("marshalling an int: no error")
	}
}

// BenchmarkStateCodec marshals a response whose state is 64 MiB (100,000
// fiat accounts are 68 MB), with stateCodec and with gRPC's codec; copied
// is the bytes of the encoding that are not the state's own buffer, which
// the process holds beside the state until gRPC has sent it (gRPC's codec
// takes that buffer from its pool, so it allocates little once warm).
func BenchmarkStateCodec(b *testing.B) {
	base := encoding.GetCodecV2(grpcproto.Name)
	typ := responseType(b)
	msg := dynamicpb.NewMessage(typ)
	state := msg.Mutable(typ.Fields().ByName("state")).Message()
	b64 := make([]byte, 64<<20)
	state.Set(state.Descriptor().Fields().ByName("msgpack"), protoreflect.ValueOfBytes(b64))
	for _, c := range []struct {
		name  string
		codec encoding.CodecV2
	}{{"stateCodec", stateCodec{base}}, {"grpc", base}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			copied := 0
			for b.Loop() {
				out, err := c.codec.Marshal(msg)
				if err != nil {
					b.Fatal(err)
				}
				copied = 0
				for _, buf := range out {
					if d := buf.ReadOnlyData(); len(d) == 0 || &d[0] != &b64[0] {
						copied += len(d)
					}
				}
				out.Free()
			}
			b.ReportMetric(float64(copied), "copied-B/op")
		})
	}
}
