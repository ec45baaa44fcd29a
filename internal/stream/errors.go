package stream

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Scope is the OAuth scope a token needs to open the stream.
const Scope = "exchange:read_aggregated_marketdata_stream"

var (
	// ErrUnauthorized: the handshake was answered 401 (token missing,
	// unknown or expired).
	ErrUnauthorized = errors.New("stream handshake refused: 401 Unauthorized")
	// ErrForbidden: the handshake was answered 403 (token without Scope).
	ErrForbidden = errors.New("stream handshake refused: 403 Forbidden")
	// ErrConnectionClosed: the connection ended (closed by either side,
	// dropped, or silent past the keepalive deadline).
	ErrConnectionClosed = errors.New("stream connection closed")
	// ErrInsecureURL: a ws:// URL to a host that is not loopback, without
	// Options.AllowInsecure.
	ErrInsecureURL = errors.New("stream URL must use wss:// for a host that is not loopback")
	// ErrSlowConsumer: the buffer of Messages overflowed and the connection
	// was closed rather than silently dropping data.
	ErrSlowConsumer = errors.New("stream messages were not read fast enough")
	// ErrUnsubscribeFailed wraps a failure of the final unsubscribe of Snapshot.
	ErrUnsubscribeFailed = errors.New("stream unsubscribe after snapshot failed")
)

// HandshakeError is a refused WebSocket handshake. It wraps ErrUnauthorized
// for 401 and ErrForbidden for 403. It never holds the token.
type HandshakeError struct {
	StatusCode int
}

func (e *HandshakeError) Error() string {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return "stream handshake refused with 401 Unauthorized: the access token is missing, invalid or expired"
	case http.StatusForbidden:
		return "stream handshake refused with 403 Forbidden: the access token lacks the scope " + Scope +
			" (the streaming API is only available to allow-listed customers)"
	}
	return fmt.Sprintf("stream handshake refused with HTTP status %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

func (e *HandshakeError) Unwrap() error {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return ErrUnauthorized
	case http.StatusForbidden:
		return ErrForbidden
	}
	return nil
}

// ServerError is an error code sent by the server in answer to a request
// (UNKNOWN_ACTION, INTERNAL_SERVER_ERROR, MALFORMED_REQUEST, ...). Op is the
// request type when known.
type ServerError struct {
	Op      string `json:"op,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

func (e *ServerError) Error() string {
	var b strings.Builder
	b.WriteString("stream server error")
	if e.Op != "" {
		fmt.Fprintf(&b, " for %.64s", e.Op)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, ": %.64s", e.Code)
	} else {
		b.WriteString(" without a code")
	}
	if e.Message != "" {
		fmt.Fprintf(&b, " (%.200s)", e.Message)
	}
	return b.String()
}

// ChannelError is a channel refused by subscribe or unsubscribe (success
// false in its reply entry). Code and Message are empty when the server
// gave no reason.
type ChannelError struct {
	Op      string
	Channel Channel
	Code    string
	Message string
}

func (e *ChannelError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stream %s of %s refused by the server", e.Op, e.Channel)
	switch {
	case e.Code != "" && e.Message != "":
		fmt.Fprintf(&b, ": %.64s (%.200s)", e.Code, e.Message)
	case e.Code != "":
		fmt.Fprintf(&b, ": %.64s", e.Code)
	case e.Message != "":
		fmt.Fprintf(&b, ": %.200s", e.Message)
	default:
		b.WriteString(" (success false, no reason given)")
	}
	return b.String()
}
