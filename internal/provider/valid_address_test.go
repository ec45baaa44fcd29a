package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// validBTCAddress is a valid segwit address on BITCOIN made from seed
// (emulator.SegwitAddress): each seed names one address, always the same,
// distinct from that of every other seed.
func validBTCAddress(seed string) string { return emulator.SegwitAddress(seed) }

// validEVMAddress is a valid address on an EVM network, in its EIP-55
// mixed-case form, made from seed: the last 20 bytes of the SHA-256 of
// seed.
func validEVMAddress(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return "0x" + eip55(hex.EncodeToString(sum[12:]))
}

func TestValidAddressHelpers(t *testing.T) {
	for _, seed := range []string{"", "a", "bc1qpolicy"} {
		if a := validBTCAddress(seed); addressChecksumProblem("BITCOIN", a) != "" || addressShapeProblem("BITCOIN", a) != "" {
			t.Errorf("validBTCAddress(%q) = %q: %s", seed, a, addressChecksumProblem("BITCOIN", a))
		}
		if a := validEVMAddress(seed); addressChecksumProblem("ETHEREUM", a) != "" {
			t.Errorf("validEVMAddress(%q) = %q: %s", seed, a, addressChecksumProblem("ETHEREUM", a))
		}
	}
	if validBTCAddress("a") == validBTCAddress("b") {
		t.Error("two seeds give one address")
	}
}
