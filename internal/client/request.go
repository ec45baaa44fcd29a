package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// maxRetryAfter caps the wait asked by a Retry-After header, so that a
// misbehaving server cannot stall an operation for hours.
const maxRetryAfter = 5 * time.Minute

// maxRetryWait bounds the time one request may spend waiting between its
// attempts, whatever max_retries and the servers' Retry-After ask: the wait
// that would pass it is cut to what is left, and the attempt after it is
// the last.
const maxRetryWait = 10 * time.Minute

// call describes one API operation.
type call struct {
	method string
	// path is relative to the base URL, already escaped.
	path  string
	query url.Values
	scope string
	// body is the JSON body of a POST; nil for a GET.
	body []byte
	// replaySafe marks requests that may be sent again: GETs, and POSTs
	// whose body carries a non-empty ref_id.
	replaySafe bool
	// public marks operations the service serves without a token: none is
	// requested or sent.
	public bool
	// list marks the read of a list (a lookup among its items): its path
	// names no object, so a 404 is never "the object is gone" (see
	// APIError.ObjectNotFound).
	list bool
	// recheck, when set, runs before each retry; true stops the retries
	// (the object was found, or cannot be looked up). For creates whose
	// replay answer the service does not publish.
	recheck func(ctx context.Context) bool
	// into, when set, receives the body of a 2xx answer, its memory
	// reused: the pages of one list are read into one buffer.
	into *[]byte
}

// endpoint returns the absolute URL of cl.
func (c *Client) endpoint(cl call) string {
	u := *c.base
	raw := strings.TrimRight(c.base.EscapedPath(), "/") + cl.path
	if p, err := url.PathUnescape(raw); err == nil {
		u.Path = p
		u.RawPath = raw
	}
	u.RawQuery = ""
	if len(cl.query) > 0 {
		u.RawQuery = cl.query.Encode()
	}
	return u.String()
}

// do performs cl and returns the body of its 2xx answer (at most
// maxResponseBytes). It asks for the token of cl.scope, retries replay-safe
// requests on 429, 5xx and network errors, and on a 401 renews the token
// once and repeats the request once.
func (c *Client) do(ctx context.Context, cl call) ([]byte, error) {
	target := c.endpoint(cl)
	if cl.public {
		resp, attempts, err := c.send(ctx, cl, target, "")
		if err != nil {
			return nil, err
		}
		noteServedAt(ctx, resp)
		return c.finish(cl, target, resp, attempts, "")
	}
	for renewed := false; ; renewed = true {
		tok, entry, err := c.token(ctx, cl.scope)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", cl.method, cl.path, err)
		}
		resp, attempts, err := c.send(ctx, cl, target, tok.AccessToken)
		if err != nil {
			return nil, err
		}
		noteServedAt(ctx, resp)
		if resp.StatusCode == http.StatusUnauthorized && !renewed {
			drainAndClose(resp.Body)
			c.logf(ctx, LevelInfo, "access token rejected, renewing it and repeating the request once", map[string]any{
				"method": cl.method, "path": cl.path, "scope": entry.scope,
			})
			c.invalidate(ctx, entry, tok.AccessToken)
			continue
		}
		return c.finish(cl, target, resp, attempts, tok.AccessToken)
	}
}

// finish reads the answer of cl, sent to target: the body of a 2xx, or an
// *APIError.
func (c *Client) finish(cl call, target string, resp *http.Response, attempts int, token string) ([]byte, error) {
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		var buf []byte
		if cl.into != nil {
			buf = (*cl.into)[:0]
		}
		body, err := readBodyInto(buf, resp.Body, resp.ContentLength, maxResponseBytes)
		if cl.into != nil && body != nil {
			*cl.into = body
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %d answer: %w", cl.method, cl.path, resp.StatusCode, err)
		}
		return body, nil
	}
	body, _ := readBody(resp.Body, maxErrorBodyBytes)
	// Scrub first, cut later: the message is cut from a body that no
	// longer holds the secret or a token (every one obtained is registered
	// with c.scrub) in any spelling.
	body = []byte(c.scrub(string(body)))
	ae := newAPIError(cl.method, cl.path, resp.StatusCode, resp.Header, body)
	ae.Scope = cl.scope
	ae.list = cl.list
	ae.URL = addressOf(target)
	ae.throttled = throttledForMinutes(resp)
	ae.Message = scrubSecret(c.scrub(ae.Message), token)
	ae.Code = scrubSecret(c.scrub(ae.Code), token)
	if attempts > 1 && isRetryableStatus(resp.StatusCode) {
		ae.Attempts = attempts
	}
	return nil, ae
}

// addressOf is target without its query, fragment or user information:
// what an error may show of the address a request was sent to.
func addressOf(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return ""
	}
	u.User = nil
	u.RawQuery = ""
	u.ForceQuery = false
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// isRetryableStatus reports whether status is one the client retries.
func isRetryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == 0 ||
		(status >= 500 && status != http.StatusNotImplemented)
}

// send runs the retry loop of go-retryablehttp for one request. It returns
// the final answer (which may be an error status) and the number of
// attempts made, or an error naming the endpoint when no answer came.
func (c *Client) send(ctx context.Context, cl call, target, token string) (*http.Response, int, error) {
	var body any
	if cl.body != nil {
		body = cl.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, cl.method, target, body)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: building request: %w", cl.method, cl.path, err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	retryMax := 0
	if cl.replaySafe {
		retryMax = c.retryMax
	}
	attempts := 0
	reason := ""
	var waited time.Duration
	rc := &retryablehttp.Client{
		HTTPClient:   c.httpClient,
		RetryWaitMin: c.retryWaitMin,
		RetryWaitMax: c.retryWaitMax,
		RetryMax:     retryMax,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		// Every attempt waits for its turn in the rate budget (pacing.go);
		// a wait cut short by ctx leaves the attempt to fail with ctx.
		RequestLogHook: func(_ retryablehttp.Logger, r *http.Request, _ int) {
			_ = c.pace.wait(r.Context(), cl.method, cl.path, false)
		},
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			attempts++
			c.noteThrottle(ctx, resp)
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			if isRedirect(err) {
				return false, nil
			}
			if resp != nil && throttledForMinutes(resp) {
				// A retry within seconds only extends the throttle.
				return false, nil
			}
			retry, _ := retryablehttp.DefaultRetryPolicy(ctx, resp, err)
			if !retry {
				return false, nil
			}
			reason = retryReason(resp, err, token, c.secret)
			if waited >= maxRetryWait {
				c.logf(ctx, LevelWarn, "not retrying: the request has waited as long as its retries may", map[string]any{
					"method": cl.method, "path": cl.path, "reason": reason, "waited_ms": waited.Milliseconds(),
				})
				return false, nil
			}
			if !cl.replaySafe {
				c.logf(ctx, LevelWarn, "not retrying: a POST without ref_id is not replay-safe", map[string]any{
					"method": cl.method, "path": cl.path, "reason": reason,
				})
				return false, nil
			}
			if cl.recheck != nil && attempts <= retryMax && cl.recheck(ctx) {
				return false, nil
			}
			return true, nil
		},
		Backoff: func(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
			wait := min(backoff(c.clock.Now(), minWait, maxWait, attempt, resp), maxRetryWait-waited)
			waited += wait
			c.logf(ctx, LevelWarn, "retrying request", map[string]any{
				"method":       cl.method,
				"path":         cl.path,
				"attempt":      attempt + 2,
				"max_attempts": retryMax + 1,
				"reason":       reason,
				"wait_ms":      wait.Milliseconds(),
			})
			return c.clock.pause(wait)
		},
	}
	if c.log != nil {
		rc.Logger = &leveledLogger{ctx: ctx, log: c.log}
	}

	resp, err := rc.Do(req)
	if err != nil {
		if resp != nil {
			drainAndClose(resp.Body)
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, attempts, fmt.Errorf("%s %s: %w", cl.method, cl.path, ctxErr)
		}
		var redirect *RedirectError
		if errors.As(err, &redirect) {
			return nil, attempts, redirect
		}
		msg := c.scrub(scrubSecret(err.Error(), token))
		switch {
		case attempts > retryMax && retryMax > 0:
			msg = fmt.Sprintf("%s %s: gave up after %d attempts: %s", cl.method, cl.path, attempts, msg)
		case !cl.replaySafe:
			msg = fmt.Sprintf("%s %s: %s (not retried: a POST without ref_id is not replay-safe; the request may or may not have been processed)", cl.method, cl.path, msg)
		default:
			msg = fmt.Sprintf("%s %s: %s", cl.method, cl.path, msg)
		}
		return nil, attempts, &scrubbedError{msg: msg, err: err}
	}
	return resp, attempts, nil
}

// retryReason describes why an attempt is retried, without secrets.
func retryReason(resp *http.Response, err error, token, secret string) string {
	if err != nil {
		return scrubSecret(scrubSecret(err.Error(), token), secret)
	}
	if resp != nil {
		return statusLine(resp.StatusCode)
	}
	return "unknown"
}

// backoff is the wait before retry attempt n (0-based) given the last
// response (nil after a network error): as long as a Retry-After header
// asks (seconds, or an HTTP date read against now; at most maxRetryAfter);
// otherwise exponential from minWait, with jitter, never beyond maxWait.
func backoff(now time.Time, minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), now); ok {
			return min(d, maxRetryAfter)
		}
	}
	return jitterBackoff(minWait, maxWait, attempt, rand.Float64())
}

// jitterBackoff returns a wait in [base/2, base] where base is
// minWait*2^attempt capped at maxWait, and never below minWait. r in [0,1)
// picks the point.
func jitterBackoff(minWait, maxWait time.Duration, attempt int, r float64) time.Duration {
	base := minWait
	for i := 0; i < attempt && base < maxWait; i++ {
		base *= 2
	}
	base = min(base, maxWait)
	half := base / 2
	wait := half + time.Duration(r*float64(base-half))
	return max(wait, minWait)
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

func drainAndClose(body io.ReadCloser) {
	if body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(body, maxErrorBodyBytes))
	_ = body.Close()
}

// leveledLogger routes go-retryablehttp's own logs to the Logger, with the
// context of the operation.
type leveledLogger struct {
	ctx context.Context
	log Logger
}

func (l *leveledLogger) Error(msg string, kv ...any) { l.emit(LevelWarn, msg, kv) }
func (l *leveledLogger) Warn(msg string, kv ...any)  { l.emit(LevelWarn, msg, kv) }
func (l *leveledLogger) Info(msg string, kv ...any)  { l.emit(LevelInfo, msg, kv) }
func (l *leveledLogger) Debug(msg string, kv ...any) { l.emit(LevelDebug, msg, kv) }

func (l *leveledLogger) emit(level Level, msg string, kv []any) {
	fields := map[string]any{"source": "retryablehttp"}
	for i := 0; i+1 < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			continue
		}
		switch v := kv[i+1].(type) {
		case error:
			fields[k] = v.Error()
		case fmt.Stringer:
			fields[k] = v.String()
		default:
			fields[k] = v
		}
	}
	if u, ok := fields["url"].(string); ok {
		if pu, err := url.Parse(u); err == nil {
			fields["url"] = pathAndQuery(pu)
		}
	}
	l.log.Log(l.ctx, level, "retryablehttp: "+msg, fields)
}

// replaySafeBody reports whether a JSON body carries a non-empty ref_id.
func replaySafeBody(body []byte) bool {
	var probe struct {
		RefID string `json:"ref_id"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		return false
	}
	return strings.TrimSpace(probe.RefID) != ""
}

// errInvalidID is returned for a get operation called without a usable id.
var errInvalidID = errors.New("invalid id: it must be non-empty and not a dot segment")

// throttledForMinutes reports a 429 without Retry-After: the service
// throttles the whole address for up to five minutes, so it is neither
// retried nor worded as a transient failure.
func throttledForMinutes(resp *http.Response) bool {
	return resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == ""
}
