package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// testAccProtoV6ProviderFactories serves the provider in-process to
// Terraform, with short retry waits so that fault tests stay fast. It is
// the server main.go serves (NewProtocol6Server).
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"platform": NewProtocol6Server(newTestProvider()),
}

func newTestProvider() provider.Provider {
	p := New("test")().(*platformProvider) //nolint:forcetypeassert // New always returns *platformProvider.
	p.retryWaitMin, p.retryWaitMax = 5*time.Millisecond, 50*time.Millisecond
	return p
}

// accEnv is the service an acceptance test runs against: an in-process
// emulator on 127.0.0.1:0 by default, or the real service when
// PLATFORM_ACC_REAL=1 and the PLATFORM_* variables are set.
type accEnv struct {
	// emu is nil against the real service.
	emu *emulator.Server
	// providerBlock configures the provider for this service.
	providerBlock string
}

// realService reports whether acceptance tests run against the real service.
func realService() bool { return os.Getenv("PLATFORM_ACC_REAL") == "1" }

// newAccEnv starts an emulator with opts (or selects the real service).
func newAccEnv(t *testing.T, opts emulator.Options) *accEnv {
	t.Helper()
	if realService() {
		for _, v := range []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL} {
			if os.Getenv(v) == "" {
				t.Fatalf("PLATFORM_ACC_REAL=1 needs %s to be set", v)
			}
		}
		return &accEnv{providerBlock: `provider "platform" {}` + "\n"}
	}
	emu := emulator.New(opts)
	if err := emu.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(emu.Close)
	return &accEnv{emu: emu, providerBlock: emulatorProviderBlock(emu, "")}
}

// emulatorProviderBlock is a provider block for emu with the default
// client and extra arguments (HCL lines).
func emulatorProviderBlock(emu *emulator.Server, extra string) string {
	return emulatorProviderBlockFor(emu, emulator.DefaultClientID, emulator.DefaultClientSecret, extra)
}

// emulatorProviderBlockFor is a provider block for emu with the given
// client credentials (see emulator.Options.Clients) and extra arguments.
func emulatorProviderBlockFor(emu *emulator.Server, clientID, clientSecret, extra string) string {
	return fmt.Sprintf(`provider "platform" {
  client_id     = %q
  client_secret = %q
  base_url      = %q
  auth_url      = %q
  ws_url        = %q
%s}
`, clientID, clientSecret, emu.BaseURL(), emu.AuthURL(), emu.WSURL(), extra)
}

// needEmulator skips tests that need the emulator's seeded data, counters
// or fault switches when running against the real service.
func (e *accEnv) needEmulator(t *testing.T) {
	t.Helper()
	if e.emu == nil {
		t.Skip("needs the emulator (counters, seeded data or fault switches); skipped against the real service")
	}
}

// needMoneyMovement skips tests that create objects when running against
// the real service, unless PLATFORM_ACC_REAL_WRITE=1 explicitly allows it.
func (e *accEnv) needMoneyMovement(t *testing.T) {
	t.Helper()
	if e.emu == nil && os.Getenv("PLATFORM_ACC_REAL_WRITE") != "1" {
		t.Skip("creates objects on the service; set PLATFORM_ACC_REAL_WRITE=1 to run it against the real service")
	}
}

// config returns the provider block followed by body.
func (e *accEnv) config(body ...string) string {
	return e.providerBlock + strings.Join(body, "\n")
}

// checkRequests fails unless the emulator received exactly want requests
// key ("METHOD /path"); msg is the failure message, with %d for the count.
func checkRequests(emu *emulator.Server, key string, want int, msg string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := emu.Counters.Requests(key); n != want {
			return fmt.Errorf(msg, n)
		}
		return nil
	}
}
