package bypass

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
)

// The handshake of terraform-plugin-go's protocol 6 server: Terraform and
// OpenTofu start a provider with this cookie in its environment.
const (
	magicCookieKey   = "TF_PLUGIN_MAGIC_COOKIE"
	magicCookieValue = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
	protocolVersion  = 6
	// maxMessageSize is the size of the largest message either way, as
	// tf6server sets it: a state of 100,000 list items passes.
	maxMessageSize = 256 << 20
)

// clientCertVariable is where the client's certificate comes when it asks
// for automatic mutual TLS.
const clientCertVariable = "PLUGIN_CLIENT_CERT"

// Serve serves the provider named name (as users write its source, fully
// qualified) until the client ends it, as tf6server.Serve does, through
// go-plugin's own server, with a P-256 certificate for the automatic
// mutual TLS (bypass 10). Under a debugger (opts) and for a client that
// does not ask for automatic mutual TLS, it is tf6server.Serve.
func Serve(name string, factory func() tfprotov6.ProviderServer, opts ...tf6server.ServeOpt) error {
	clientCert := os.Getenv(clientCertVariable)
	if len(opts) > 0 || clientCert == "" || os.Getenv(magicCookieKey) != magicCookieValue {
		return tf6server.Serve(name, factory, opts...)
	}
	tlsConfig, leaf, err := mutualTLS(clientCert)
	if err != nil {
		return err
	}
	out, err := certInHandshake(leaf)
	if err != nil {
		return err
	}
	defer out.restore()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  protocolVersion,
			MagicCookieKey:   magicCookieKey,
			MagicCookieValue: magicCookieValue,
		},
		Plugins: plugin.PluginSet{
			"provider": &tf6server.GRPCProviderPlugin{GRPCProvider: factory, Name: name},
		},
		GRPCServer: func(o []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(o, grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize))...)
		},
		TLSProvider: func() (*tls.Config, error) { return tlsConfig, nil },
	})
	return nil
}

// mutualTLS is the server's side of the automatic mutual TLS: a new P-256
// certificate for localhost, and only the client's certificate (PEM)
// trusted. leaf is the certificate's DER, for the handshake line.
func mutualTLS(clientCertPEM string) (*tls.Config, []byte, error) {
	clients := x509.NewCertPool()
	if !clients.AppendCertsFromPEM([]byte(clientCertPEM)) {
		return nil, nil, errors.New(clientCertVariable + " holds no PEM certificate")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	template := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "localhost", Organization: []string{"terraform-provider-platform"}},
		DNSNames:     []string{"localhost"},
		// The client trusts this certificate as its own root: it signs
		// itself, for the server's and the client's side.
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyAgreement | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(30 * 24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    clients,
		MinVersion:   tls.VersionTLS12,
	}, der, nil
}

// handshakeOut stands in for the process's standard output while go-plugin
// writes its handshake line, which names no certificate when the server
// brings its own TLS configuration; it writes the line to the real output
// with the certificate in its sixth field, where the client reads it.
type handshakeOut struct {
	real *os.File
	w    *os.File
}

// certInHandshake makes os.Stdout a pipe whose first line reaches the real
// output with leaf (DER) as its certificate field, and what follows as it
// is. go-plugin replaces os.Stdout by its own pipe right after the line.
func certInHandshake(leaf []byte) (*handshakeOut, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	h := &handshakeOut{real: os.Stdout, w: w}
	cert := base64.RawStdEncoding.EncodeToString(leaf)
	go func() {
		defer func() { _ = r.Close() }()
		br := bufio.NewReader(r)
		line, err := br.ReadString('\n')
		if line != "" {
			_, _ = io.WriteString(h.real, withCert(line, cert))
		}
		if err == nil {
			_, _ = io.Copy(h.real, br)
		}
	}()
	os.Stdout = w
	return h, nil
}

// restore ends the stand-in: the process's output is the real one again.
func (h *handshakeOut) restore() {
	if os.Stdout == h.w {
		os.Stdout = h.real
	}
	_ = h.w.Close()
}

// withCert is the handshake line with cert as its sixth field
// (core|app|network|address|protocol|cert[|multiplexing]), or the line as
// it is when it has fewer fields.
func withCert(line, cert string) string {
	body, nl := strings.CutSuffix(line, "\n")
	fields := strings.Split(body, "|")
	if len(fields) < 6 {
		return line
	}
	fields[5] = cert
	out := strings.Join(fields, "|")
	if nl {
		out += "\n"
	}
	return out
}
