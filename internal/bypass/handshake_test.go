package bypass_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/provider"
)

const (
	cookieKey   = "TF_PLUGIN_MAGIC_COOKIE"
	cookieValue = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
	// asProvider makes the test binary serve the provider (TestMain).
	asProvider = "SERVE_TEST_AS_PROVIDER"
)

func TestMain(m *testing.M) {
	if way := os.Getenv(asProvider); way != "" {
		server, err := provider.NewProtocol6Server(provider.New("test")())()
		factory := func() tfprotov6.ProviderServer { return server }
		if err == nil {
			if way == "tf6server" {
				err = tf6server.Serve("registry.terraform.io/platform/platform", factory)
			} else {
				err = bypass.Serve("registry.terraform.io/platform/platform", factory)
			}
		}
		if err != nil {
			_, _ = os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// servedBy is this test binary started as the provider, served by way:
// "bypass" (bypass.Serve) or "tf6server" (tf6server.Serve).
func servedBy(t *testing.T, way string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$") //nolint:gosec // The test binary itself.
	cmd.Env = append(os.Environ(), append([]string{asProvider + "=" + way}, env...)...)
	return cmd
}

// handshake is the fields of the handshake line of the provider served by
// way with env, and its process, which ends with the test.
func handshake(t *testing.T, way string, env ...string) ([]string, *exec.Cmd) {
	t.Helper()
	cmd := servedBy(t, way, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("%s: no handshake line: %v", way, err)
	}
	return strings.Split(strings.TrimSuffix(line, "\n"), "|"), cmd
}

// certOf is the certificate of a handshake line's sixth field.
func certOf(t *testing.T, field string) *x509.Certificate {
	t.Helper()
	der, err := base64.RawStdEncoding.DecodeString(field)
	if err != nil {
		t.Fatalf("the certificate field %q: %v", field, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.VerifyHostname("localhost"); err != nil {
		t.Fatal(err)
	}
	return cert
}

// TestEquivalenceHandshake serves the provider by bypass.Serve and by
// tf6server.Serve with the same environment: the handshake lines are the
// same but for the address and the certificate (P-256 against P-521, both
// for localhost), with and without go-plugin's multiplexing, and without
// TLS; and both answer go-plugin's client with automatic mutual TLS, as
// Terraform and OpenTofu start them, and end when it ends them.
func TestEquivalenceHandshake(t *testing.T) {
	_, clientPEM := selfSigned(t)
	for _, c := range []struct {
		name string
		env  []string
	}{
		{"mutual TLS", []string{"PLUGIN_CLIENT_CERT=" + clientPEM}},
		{"mutual TLS, multiplexing", []string{"PLUGIN_CLIENT_CERT=" + clientPEM, "PLUGIN_MULTIPLEX_GRPC=true"}},
		{"no TLS", []string{"PLUGIN_CLIENT_CERT="}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := append([]string{cookieKey + "=" + cookieValue, "PLUGIN_PROTOCOL_VERSIONS=5,6"}, c.env...)
			ours, _ := handshake(t, "bypass", env...)
			theirs, _ := handshake(t, "tf6server", env...)
			if len(ours) != len(theirs) || len(ours) < 6 {
				t.Fatalf("handshake lines %q and %q: want as many fields, at least 6", ours, theirs)
			}
			for i := range ours {
				if i == 3 || i == 5 {
					continue // the address, the certificate
				}
				if ours[i] != theirs[i] {
					t.Errorf("field %d of the handshake line: %q, tf6server's %q", i+1, ours[i], theirs[i])
				}
			}
			if (ours[5] == "") != (theirs[5] == "") {
				t.Fatalf("certificate field %q, tf6server's %q: want both or neither", ours[5], theirs[5])
			}
			if ours[5] == "" {
				return
			}
			for _, k := range []struct {
				field string
				curve elliptic.Curve
			}{{ours[5], elliptic.P256()}, {theirs[5], elliptic.P521()}} {
				pub, ok := certOf(t, k.field).PublicKey.(*ecdsa.PublicKey)
				if !ok || pub.Curve != k.curve {
					t.Errorf("a server's key is %T, want ECDSA on %s", pub, k.curve.Params().Name)
				}
			}
		})
	}
	for _, way := range []string{"bypass", "tf6server"} {
		t.Run("go-plugin's client/"+way, func(t *testing.T) {
			client := plugin.NewClient(&plugin.ClientConfig{
				HandshakeConfig: plugin.HandshakeConfig{ProtocolVersion: 6, MagicCookieKey: cookieKey, MagicCookieValue: cookieValue},
				VersionedPlugins: map[int]plugin.PluginSet{
					6: {"provider": &tf6server.GRPCProviderPlugin{}},
				},
				Cmd:              servedBy(t, way),
				AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
				AutoMTLS:         true,
				Logger:           hclog.NewNullLogger(),
			})
			defer client.Kill()
			rpc, err := client.Client()
			if err != nil {
				t.Fatalf("the client's handshake: %v", err)
			}
			if err := rpc.Ping(); err != nil {
				t.Fatalf("the health check over the mutual TLS: %v", err)
			}
			if v := client.NegotiatedVersion(); v != 6 {
				t.Fatalf("negotiated protocol %d, want 6", v)
			}
			client.Kill()
			if !client.Exited() {
				t.Fatal("the provider is still running after the client ended it")
			}
		})
	}
}

// selfSigned is a client certificate as go-plugin's client makes one.
func selfSigned(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"}, DNSNames: []string{"localhost"},
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		NotBefore:   time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestServeHandshakeLine reads the handshake line itself: it names the
// server's P-256 certificate for localhost, which serves only the client
// whose certificate came in PLUGIN_CLIENT_CERT, and the controller's
// shutdown ends the process with status 0.
func TestServeHandshakeLine(t *testing.T) {
	clientCert, clientPEM := selfSigned(t)
	fields, cmd := handshake(t, "bypass", cookieKey+"="+cookieValue, "PLUGIN_PROTOCOL_VERSIONS=5,6", "PLUGIN_CLIENT_CERT="+clientPEM)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if len(fields) < 6 || fields[0] != "1" || fields[1] != "6" || fields[4] != "grpc" {
		t.Fatalf("handshake line %q: want 1|6|network|address|grpc|cert", fields)
	}
	cert := certOf(t, fields[5])
	pub, ok := cert.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		t.Fatalf("the server's key is %T, want ECDSA P-256", cert.PublicKey)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	conn, err := grpcConn(fields[2], fields[3], clientCert, roots)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	health, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "plugin"})
	if err != nil {
		t.Fatalf("health check: %v", err)
	}
	if health.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health %v, want SERVING", health.GetStatus())
	}

	// A client with another certificate is refused.
	stranger, _ := selfSigned(t)
	other, err := grpcConn(fields[2], fields[3], stranger, roots)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Close() }()
	if _, err := healthpb.NewHealthClient(other).Check(ctx, &healthpb.HealthCheckRequest{Service: "plugin"}); err == nil {
		t.Fatal("a client whose certificate is not PLUGIN_CLIENT_CERT was served")
	}

	// go-plugin's controller stops the server before it answers, as
	// go-plugin's client expects: the call's error says nothing.
	_ = conn.Invoke(ctx, "/plugin.GRPCController/Shutdown", &emptypb.Empty{}, &emptypb.Empty{})
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the provider ended with %v after the shutdown, want status 0", err)
		}
	case <-ctx.Done():
		t.Fatal("the provider did not end after the shutdown")
	}
}

// grpcConn is a client connection to the provider at address on network
// (go-plugin's "unix" or "tcp"), presenting cert and trusting roots.
func grpcConn(network, address string, cert tls.Certificate, roots *x509.CertPool) (*grpc.ClientConn, error) {
	creds := credentials.NewTLS(&tls.Config{
		Certificates: []tls.Certificate{cert}, RootCAs: roots, ServerName: "localhost", MinVersion: tls.VersionTLS12,
	})
	target := "passthrough:///" + address
	if network == "unix" {
		target = "unix://" + address
	}
	return grpc.NewClient(target, grpc.WithTransportCredentials(creds))
}

// TestServeRefusesWithoutCookie: started by hand, the provider says what it
// is and ends with status 1, as every provider does.
func TestServeRefusesWithoutCookie(t *testing.T) {
	cmd := servedBy(t, "bypass", cookieKey+"=")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1; output %q", err, out)
	}
	if !strings.Contains(string(out), "This binary is a plugin") {
		t.Fatalf("output %q does not say the binary is a plugin", out)
	}
}
