package bypass

import "testing"

func TestWithCert(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"1|6|unix|/tmp/plugin1|grpc|\n", "1|6|unix|/tmp/plugin1|grpc|CERT\n"},
		{"1|6|unix|/tmp/plugin1|grpc||true\n", "1|6|unix|/tmp/plugin1|grpc|CERT|true\n"},
		{"1|6|tcp|127.0.0.1:10000|grpc|", "1|6|tcp|127.0.0.1:10000|grpc|CERT"},
		{"not a handshake\n", "not a handshake\n"},
	} {
		if got := withCert(c.line, "CERT"); got != c.want {
			t.Errorf("withCert(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
