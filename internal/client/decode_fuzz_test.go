package client

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeResponses feeds one body to every response decoder of the
// client that fuzz_test.go does not already cover (fiat deposit
// instructions, stablecoin conversions, and pages of fiat accounts and of
// reward claims), as a hostile or broken server could send it. Each decoder
// must return exactly one of a value and an error, never panic, accept no
// object without its id, and explain a failure in valid UTF-8 of bounded
// length: the message ends up in a Terraform diagnostic, which the plugin
// protocol can only carry as valid UTF-8.
func FuzzDecodeResponses(f *testing.F) {
	for _, s := range []string{
		`{"id":"f1","profile_id":"p","identity_id":"i","status":"VALID","memo_id":"m","created_at":"2024-01-01T00:00:00Z",` +
			`"fiat_network_instructions":{"wire":{"account_number":"1","routing_details":{"routing_number_type":"ABA",` +
			`"routing_number":"2","bank_name":"b","bank_address":null},"fiat_account_owner_address":null}},` +
			`"fiat_account_owner":{"person_details":{"first_name":"a","last_name":"b"}},"metadata":{"k":"v"}}`,
		`{"id":"0b9a7e4e-3c1f-4a55-9d0e-6f1b2a3c4d5e","profile_id":"p","amount":"1.5","source_asset":"USDC",` +
			`"target_asset":"USD","status":"CREATED","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z",` +
			`"settled_at":null,"metadata":{"a":"b"}}`,
		`{"items":[{"id":"a","fiat_account_owner":{"person_details":null},"fiat_network_instructions":{"wire":` +
			`{"status":"ACTIVE","metadata":{"n":1,"o":{"p":[true,null]}}}},"created_at":"2024-01-01T00:00:00.5Z"}],` +
			`"next_page_cursor":"c"}`,
		`{"items":[{"id":"r","payout_group_id":"g","amount":"1","addresses":["x"],"blockchain":"solana",` +
			`"submitted_at":null,"created_at":"2024-01-01T00:00:00Z"}],"next_page_cursor":""}`,
		``, `null`, `{}`, `[]`, `"id"`, `{"id":""}`, `{"id":null}`, `{"id":1}`, `{"items":null}`, `{"items":[null]}`,
		`{"items":[{"created_at":"2024-13-01T00:00:00Z"}]}`, `{"id":"x","metadata":{"k":1}}`, `{"id":"x","created_at":5}`,
		`{"id":"x"`, `<html><body>502</body></html>`, "\xef\xbb\xbf{\"id\":\"x\"}", "{\"id\":\"\xff\"}", `{"id":"\ud800"}`,
		strings.Repeat(`{"a":`, 50) + `1` + strings.Repeat(`}`, 50), strings.Repeat("[", 20000),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(what string, ok bool, err error) {
			t.Helper()
			if ok == (err != nil) {
				t.Fatalf("%s(%q): value present = %v with error %v: want exactly one", what, body, ok, err)
			}
			if err == nil {
				return
			}
			msg := err.Error()
			if msg == "" {
				t.Fatalf("%s(%q): empty error message", what, body)
			}
			if !utf8.ValidString(msg) {
				t.Fatalf("%s(%q): error message is not valid UTF-8: %q", what, body, msg)
			}
			if len(msg) > 2048 {
				t.Fatalf("%s: error message of %d bytes; a server's body must not be copied into it", what, len(msg))
			}
		}

		fdi, err := decodeFiatDepositInstructions(body)
		check("decodeFiatDepositInstructions", fdi != nil, err)
		if fdi != nil && fdi.ID == "" {
			t.Fatal("fiat deposit instructions without id accepted")
		}

		conv, err := decodeStablecoinConversion(body)
		check("decodeStablecoinConversion", conv != nil, err)
		if conv != nil && (conv.ID == nil || *conv.ID == "") {
			t.Fatal("stablecoin conversion without id accepted")
		}

		accounts, err := decodePage[FiatAccount](body, "")
		check("decodePage[FiatAccount]", accounts != nil, err)
		checkNoNilItem(t, "fiat account", accounts)

		addresses, err := decodePage[CryptoDestinationAddress](body, "addresses")
		check("decodePage[CryptoDestinationAddress]", addresses != nil, err)
		checkNoNilItem(t, "destination address", addresses)

		claims, err := decodePage[RewardClaim](body, "")
		check("decodePage[RewardClaim]", claims != nil, err)
		checkNoNilItem(t, "reward claim", claims)
	})
}

// checkNoNilItem fails t on a nil item of p, a page decoded without an
// error (or nil), each item being a what.
func checkNoNilItem[T any](t *testing.T, what string, p *page[T]) {
	t.Helper()
	if p == nil {
		return
	}
	for i, it := range p.Items {
		if it == nil {
			t.Fatalf("%s %d is nil without an error", what, i)
		}
	}
}
