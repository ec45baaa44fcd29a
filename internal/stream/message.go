package stream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
)

// Channel types of the streaming API.
const (
	ChannelMarketData = "market_data"
	ChannelTopOfBook  = "market_data.top_of_book"
	ChannelExecution  = "execution_data"
	ChannelHeartbeat  = "heartbeat"
)

// Operation types of the streaming API.
const (
	OpSubscribe        = "subscribe"
	OpUnsubscribe      = "unsubscribe"
	OpSubscriptionList = "subscription_list"
)

// Payload types. The spec names UPDATE and TOP_OF_BOOK; it does not show the
// type of the initial market_data snapshot (the emulator sends SNAPSHOT), so
// IsBookSnapshot treats every market_data payload that is not an UPDATE as a
// snapshot.
const (
	TypeUpdate    = "UPDATE"
	TypeSnapshot  = "SNAPSHOT"
	TypeTopOfBook = "TOP_OF_BOOK"
)

// Streaming error codes.
const (
	CodeUnknownAction                     = "UNKNOWN_ACTION"
	CodeInternalServerError               = "INTERNAL_SERVER_ERROR"
	CodeMalformedRequest                  = "MALFORMED_REQUEST"
	CodeNoEffectAction                    = "NO_EFFECT_ACTION"
	CodeUnknownChannel                    = "UNKNOWN_CHANNEL"
	CodeUnknownChannelParamsConfiguration = "UNKNOWN_CHANNEL_PARAMS_CONFIGURATION"
)

// Message is one decoded frame: *MarketData, *TopOfBook, *Execution,
// *Heartbeat, *Reply or *ServerError.
type Message interface {
	isMessage()
}

// Level is one price level. Price and Amount are decimal strings as sent.
type Level struct {
	Price  string `json:"price"`
	Amount string `json:"amount"`
}

// MarketData is a market_data payload: the initial snapshot of the book, or
// an UPDATE holding changed levels (amount "0" removes a level).
type MarketData struct {
	Market string  `json:"market"`
	Type   string  `json:"type"`
	Time   string  `json:"time"`
	Bids   []Level `json:"bids"`
	Asks   []Level `json:"asks"`
	// Seq is the position of the frame on its connection (1 for the first
	// frame); 0 when decoded outside a connection.
	Seq uint64 `json:"-"`
}

// TopOfBook is a market_data.top_of_book payload.
type TopOfBook struct {
	Market    string  `json:"market"`
	Type      string  `json:"type"`
	Timestamp string  `json:"timestamp"`
	Bids      []Level `json:"bids"`
	Asks      []Level `json:"asks"`
	Seq       uint64  `json:"-"`
}

// BestBid returns the first bid level, if any.
func (t *TopOfBook) BestBid() (Level, bool) {
	if len(t.Bids) == 0 {
		return Level{}, false
	}
	return t.Bids[0], true
}

// BestAsk returns the first ask level, if any.
func (t *TopOfBook) BestAsk() (Level, bool) {
	if len(t.Asks) == 0 {
		return Level{}, false
	}
	return t.Asks[0], true
}

// Execution is an execution_data payload (one trade).
type Execution struct {
	Market     string `json:"market"`
	Price      string `json:"price"`
	Amount     string `json:"amount"`
	ExecutedAt string `json:"executed_at"`
	Seq        uint64 `json:"-"`
}

// Heartbeat is a heartbeat payload.
type Heartbeat struct {
	Timestamp string `json:"timestamp"`
	Seq       uint64 `json:"-"`
}

// Reply answers subscribe, unsubscribe or subscription_list.
type Reply struct {
	Type     string          `json:"type"`
	Channels []ChannelStatus `json:"channels"`
	Seq      uint64          `json:"-"`
}

// ChannelStatus is one entry of a reply: the echoed channel, and for
// subscribe and unsubscribe its success flag. Code and Message are set when
// the server explained a failure (the spec does not promise that it does).
type ChannelStatus struct {
	Channel Channel         `json:"channel"`
	Params  json.RawMessage `json:"params,omitempty"`
	Success bool            `json:"success"`
	Code    string          `json:"code,omitempty"`
	Message string          `json:"message,omitempty"`
}

func (*MarketData) isMessage()  {}
func (*TopOfBook) isMessage()   {}
func (*Execution) isMessage()   {}
func (*Heartbeat) isMessage()   {}
func (*Reply) isMessage()       {}
func (*ServerError) isMessage() {}

// IsBookSnapshot reports whether m is a market_data payload that is not an
// incremental UPDATE, that is the initial snapshot of the book.
func IsBookSnapshot(m Message) bool {
	md, ok := m.(*MarketData)
	return ok && md.Type != TypeUpdate
}

// UnmarshalJSON accepts {"price": p, "amount": a} and [p, a], with p and a
// JSON strings or numbers.
func (l *Level) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var p, a json.RawMessage
	if len(b) > 0 && b[0] == '[' {
		var arr []json.RawMessage
		if err := json.Unmarshal(b, &arr); err != nil {
			return err
		}
		if len(arr) < 2 {
			return errors.New("price level array needs price and amount")
		}
		p, a = arr[0], arr[1]
	} else {
		var o struct {
			Price  json.RawMessage `json:"price"`
			Amount json.RawMessage `json:"amount"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		p, a = o.Price, o.Amount
	}
	var err error
	if l.Price, err = numberText(p); err != nil {
		return fmt.Errorf("price: %w", err)
	}
	if l.Amount, err = numberText(a); err != nil {
		return fmt.Errorf("amount: %w", err)
	}
	return nil
}

// numberText returns a JSON string's value or a JSON number's text.
func numberText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New("missing")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		if s == "" {
			return "", errors.New("empty")
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", errors.New("not a number or string")
	}
	return n.String(), nil
}

// stringField returns raw's value when it is a JSON string, else "".
func stringField(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// frame is the union of every top-level field a frame may carry.
type frame struct {
	Channel     json.RawMessage `json:"channel"`
	Type        json.RawMessage `json:"type"`
	Payload     json.RawMessage `json:"payload"`
	Channels    json.RawMessage `json:"channels"`
	Code        json.RawMessage `json:"code"`
	Message     json.RawMessage `json:"message"`
	Error       json.RawMessage `json:"error"`
	RequestType json.RawMessage `json:"request_type"`
}

// codeLike matches an error code such as UNKNOWN_CHANNEL.
var codeLike = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)

// errorDetail reads an error object {"code":..., "message":...}. A bare
// string is the code when it is written like one (as the API reference
// shows per-channel failures: "error":"UNKNOWN_CHANNEL_PARAMS_CONFIGURATION"),
// and the message otherwise.
func errorDetail(raw json.RawMessage) (code, msg string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", ""
	}
	if raw[0] == '"' {
		s := stringField(raw)
		if codeLike.MatchString(s) {
			return s, ""
		}
		return "", s
	}
	var o struct {
		Code    json.RawMessage `json:"code"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return "", ""
	}
	return stringField(o.Code), stringField(o.Message)
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// DecodeMessage decodes one text frame. Data frames ({"channel", "payload"})
// become *MarketData, *TopOfBook, *Execution or *Heartbeat; replies become
// *Reply; error frames become *ServerError (returned as the Message, with a
// nil error). An error frame is any frame of type "error", and any reply
// that carries a top-level code or error object. A non-nil error means the
// frame could not be understood; it never panics.
func DecodeMessage(data []byte) (Message, error) {
	if !isObject(data) {
		return nil, errors.New("stream frame is not a JSON object")
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("stream frame: %w", err)
	}
	if len(f.Channel) > 0 && string(f.Channel) != "null" {
		ch := stringField(f.Channel)
		if ch == "" {
			return nil, errors.New("stream frame: channel is not a non-empty string")
		}
		return decodePayload(ch, f.Payload)
	}
	typ := stringField(f.Type)
	if typ == "" {
		return nil, errors.New("stream frame has neither channel nor type")
	}
	code := stringField(f.Code)
	msg := stringField(f.Message)
	if c, m := errorDetail(f.Error); c != "" || m != "" {
		if code == "" {
			code = c
		}
		if msg == "" {
			msg = m
		}
	}
	if typ == "error" {
		return &ServerError{Op: stringField(f.RequestType), Code: code, Message: msg}, nil
	}
	switch typ {
	case OpSubscribe, OpUnsubscribe, OpSubscriptionList:
	default:
		return nil, fmt.Errorf("stream frame of unknown type %.64q", typ)
	}
	if code != "" || (len(f.Error) > 0 && string(f.Error) != "null") {
		return &ServerError{Op: typ, Code: code, Message: msg}, nil
	}
	r := &Reply{Type: typ}
	if len(f.Channels) > 0 && string(f.Channels) != "null" {
		var entries []struct {
			Type    json.RawMessage `json:"type"`
			Params  json.RawMessage `json:"params"`
			Success json.RawMessage `json:"success"`
			Code    json.RawMessage `json:"code"`
			Message json.RawMessage `json:"message"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(f.Channels, &entries); err != nil {
			return nil, fmt.Errorf("stream %s reply: channels: %w", typ, err)
		}
		r.Channels = make([]ChannelStatus, 0, len(entries))
		for _, e := range entries {
			st := ChannelStatus{
				Channel: Channel{Type: stringField(e.Type), Market: marketOf(e.Params)},
				Success: string(bytes.TrimSpace(e.Success)) == "true",
				Code:    stringField(e.Code),
				Message: stringField(e.Message),
			}
			if len(e.Params) > 0 && string(e.Params) != "null" {
				st.Params = append(json.RawMessage(nil), e.Params...)
			}
			if c, m := errorDetail(e.Error); c != "" || m != "" {
				st.Code, st.Message = c, m
			}
			r.Channels = append(r.Channels, st)
		}
	}
	return r, nil
}

// marketOf returns params.market when params is an object with a string market.
func marketOf(params json.RawMessage) string {
	if !isObject(params) {
		return ""
	}
	var p struct {
		Market json.RawMessage `json:"market"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return stringField(p.Market)
}

func decodePayload(ch string, payload json.RawMessage) (Message, error) {
	if !isObject(payload) {
		return nil, fmt.Errorf("stream %.64s message: payload is not an object", ch)
	}
	var (
		m      Message
		market *string
	)
	switch ch {
	case ChannelMarketData:
		v := &MarketData{}
		m, market = v, &v.Market
	case ChannelTopOfBook:
		v := &TopOfBook{}
		m, market = v, &v.Market
	case ChannelExecution:
		v := &Execution{}
		m, market = v, &v.Market
	case ChannelHeartbeat:
		m = &Heartbeat{}
	default:
		return nil, fmt.Errorf("stream message on unknown channel %.64q", ch)
	}
	if err := json.Unmarshal(payload, m); err != nil {
		return nil, fmt.Errorf("stream %s message: %w", ch, err)
	}
	if market != nil && *market == "" {
		return nil, fmt.Errorf("stream %s message has no market", ch)
	}
	return m, nil
}

// seqOf returns the connection position of a decoded message.
func seqOf(m Message) uint64 {
	switch v := m.(type) {
	case *MarketData:
		return v.Seq
	case *TopOfBook:
		return v.Seq
	case *Execution:
		return v.Seq
	case *Heartbeat:
		return v.Seq
	case *Reply:
		return v.Seq
	}
	return 0
}

func setSeq(m Message, seq uint64) {
	switch v := m.(type) {
	case *MarketData:
		v.Seq = seq
	case *TopOfBook:
		v.Seq = seq
	case *Execution:
		v.Seq = seq
	case *Heartbeat:
		v.Seq = seq
	case *Reply:
		v.Seq = seq
	}
}

// channelOf returns the channel a data message arrived on.
func channelOf(m Message) (Channel, bool) {
	switch v := m.(type) {
	case *MarketData:
		return Channel{Type: ChannelMarketData, Market: v.Market}, true
	case *TopOfBook:
		return Channel{Type: ChannelTopOfBook, Market: v.Market}, true
	case *Execution:
		return Channel{Type: ChannelExecution, Market: v.Market}, true
	case *Heartbeat:
		return Channel{Type: ChannelHeartbeat}, true
	}
	return Channel{}, false
}
