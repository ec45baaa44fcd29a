package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// BenchmarkPageFiatAccounts100k pages through 100,000 fiat accounts in
// pages of 1,000 over real HTTP; one op is one full pass (100 pages).
// "decode" decodes every page as a client would; "raw" only reads the body
// and takes the cursor from its tail, so it measures the server and the
// transport.
func BenchmarkPageFiatAccounts100k(b *testing.B) {
	e := newEnv(b, Options{FiatAccounts: 100_000})
	b.Run("decode", func(b *testing.B) { benchPaging(b, e, true) })
	b.Run("raw", func(b *testing.B) { benchPaging(b, e, false) })
}

var cursorKeyJSON = []byte(`"next_page_cursor":"`)

func benchPaging(b *testing.B, e *env, decode bool) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.Cleanup(client.CloseIdleConnections)
	pages := 0
	for b.Loop() {
		n, passPages := 0, 0
		q := url.Values{"limit": {"1000"}, "include_deleted": {"true"}}
		for {
			req, err := http.NewRequestWithContext(b.Context(), http.MethodGet, e.s.BaseURL()+"/transfer/fiat-accounts?"+q.Encode(), nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+e.token)
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d, err %v", resp.StatusCode, err)
			}
			var cursor string
			if decode {
				var p Page[json.RawMessage]
				if err := json.Unmarshal(body, &p); err != nil {
					b.Fatal(err)
				}
				n += len(p.Items)
				cursor = p.NextPageCursor
			} else {
				i := bytes.LastIndex(body, cursorKeyJSON)
				if i < 0 {
					b.Fatal("no cursor in page")
				}
				rest := body[i+len(cursorKeyJSON):]
				cursor = string(rest[:bytes.IndexByte(rest, '"')])
				n += 1000
			}
			pages++
			passPages++
			if cursor == "" {
				break
			}
			q.Set("page_cursor", cursor)
		}
		if n != 100_000 || passPages != 100 {
			b.Fatalf("paged %d items in %d pages", n, passPages)
		}
	}
	elapsed := b.Elapsed()
	b.ReportMetric(float64(elapsed)/float64(time.Millisecond)/float64(b.N), "ms/pass")
	b.ReportMetric(float64(elapsed)/float64(time.Millisecond)/float64(pages), "ms/page")
}

// BenchmarkSeed seeds 100,000 rows of each data set.
func BenchmarkSeed(b *testing.B) {
	for b.Loop() {
		New(Options{FiatAccounts: 100_000, DepositAddresses: 100_000, RewardClaims: 100_000, StablecoinConversions: 100_000})
	}
}
