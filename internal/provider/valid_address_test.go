package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// validBTCAddress is a valid segwit address on BITCOIN (bech32, witness
// version 0) made from seed: its 20-byte program is the first 20 bytes of
// the SHA-256 of seed, so each seed names one address, always the same,
// distinct from that of every other seed.
func validBTCAddress(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	program, err := bech32.ConvertBits(sum[:20], 8, 5, true)
	if err != nil {
		panic(err)
	}
	address, err := bech32.Encode("bc", append([]byte{0}, program...))
	if err != nil {
		panic(err)
	}
	return address
}

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
