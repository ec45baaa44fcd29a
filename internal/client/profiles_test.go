package client

import (
	"strings"
	"testing"
)

func TestDecodeProfileBalances(t *testing.T) {
	for _, c := range []struct {
		name, body, err string
		n               int
	}{
		{name: "items", body: `{"items":[{"asset":"USD","available":"10.5","trading":"0"},{"asset":"BTC","available":"1","trading":"0.1"}]}`, n: 2},
		{name: "empty", body: `{"items":[]}`, n: 0},
		{name: "no items", body: `{}`, err: "the response has no items"},
		// The envelope of an earlier reading of the service, and a bare
		// list, are not the published answer.
		{name: "balances envelope", body: `{"balances":[{"asset":"USD","available":"10.5","trading":"0"}]}`, err: "the response has no items"},
		{name: "bare list", body: `[{"asset":"USD","available":"10.5","trading":"0"}]`, err: "decoding response"},
		{name: "no asset", body: `{"items":[{"available":"1"}]}`, err: "balance 0 has no asset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeProfileBalances([]byte(c.body))
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want %q", err, c.err)
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err == "" && len(got) != c.n:
				t.Fatalf("%d balances, want %d", len(got), c.n)
			}
		})
	}
}
