package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// The client never follows a redirect. The token request carries the client
// secret in its form body, which a followed 307 or 308 sends on to any
// host; an API request carries the bearer token, and a withdrawal would be
// sent where the redirect says and the stranger's answer recorded as the
// service's. A 3xx answer is therefore an error that names the status and
// the host it points to, and the request is never sent there.

// RedirectError is a redirect answered to a request of the client.
type RedirectError struct {
	Method string
	// URL is the request's URL without its query.
	URL    string
	Status int
	// LocationHost is the host the redirect points to ("" when the answer
	// named none).
	LocationHost string
	// Setting is the provider setting that names the endpoint (auth_url,
	// base_url or ws_url).
	Setting string
}

func (e *RedirectError) Error() string {
	to := "no location"
	if e.LocationHost != "" {
		to = "host " + e.LocationHost
	}
	return fmt.Sprintf("%s %s answered %s, a redirect to %s. The provider never follows redirects (the token "+
		"request carries the client secret in its body, API requests carry the access token): the configured %s "+
		"is probably wrong; it must name the service's endpoint itself", e.Method, e.URL, statusLine(e.Status), to, e.Setting)
}

// isRedirect reports whether err is, or wraps, a *RedirectError.
func isRedirect(err error) bool {
	var re *RedirectError
	return errors.As(err, &re)
}

// redirectError is the CheckRedirect of the client's HTTP client: it stops
// at the first redirect, before anything is sent to its target.
func (c *Client) redirectError(req *http.Request, via []*http.Request) error {
	first := req
	if len(via) > 0 {
		first = via[0]
	}
	e := &RedirectError{Method: first.Method, URL: stripQuery(first.URL), LocationHost: req.URL.Host, Setting: "base_url"}
	if req.Response != nil {
		e.Status = req.Response.StatusCode
	}
	if stripQuery(first.URL) == c.tokenURL {
		e.Setting = "auth_url"
	}
	return e
}

// stripQuery is u without its query and fragment.
func stripQuery(u *url.URL) string {
	c := *u
	c.RawQuery, c.Fragment, c.User = "", "", nil
	return c.String()
}
