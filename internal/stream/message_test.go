package stream

import (
	"testing"
)

func TestDecodeMessage(t *testing.T) {
	t.Run("market data", func(t *testing.T) {
		m, err := DecodeMessage([]byte(`{"channel":"market_data","payload":{"market":"BTCUSD","type":"UPDATE","time":"2024-01-02T03:04:05.123Z",
			"bids":[{"price":"60000.00","amount":"0"}],"asks":[["60001.5", 2]]}}`))
		md, ok := m.(*MarketData)
		if err != nil || !ok {
			t.Fatalf("%T %v", m, err)
		}
		if md.Market != "BTCUSD" || md.Type != TypeUpdate || md.Time != "2024-01-02T03:04:05.123Z" ||
			len(md.Bids) != 1 || md.Bids[0] != (Level{"60000.00", "0"}) || md.Asks[0] != (Level{"60001.5", "2"}) {
			t.Fatalf("%+v", md)
		}
		if IsBookSnapshot(md) {
			t.Fatal("an UPDATE is not a snapshot")
		}
	})
	t.Run("top of book", func(t *testing.T) {
		m, err := DecodeMessage([]byte(`{"channel":"market_data.top_of_book","payload":{"market":"ETHUSD","type":"TOP_OF_BOOK",
			"timestamp":"2024-01-02T03:04:05.123456789Z","bids":[{"price":"2999.90","amount":"1.5"}],"asks":[{"price":"3000.10","amount":"2"}]}}`))
		tb, ok := m.(*TopOfBook)
		if err != nil || !ok {
			t.Fatalf("%T %v", m, err)
		}
		bid, _ := tb.BestBid()
		ask, _ := tb.BestAsk()
		if tb.Type != TypeTopOfBook || bid.Price != "2999.90" || ask.Amount != "2" || tb.Timestamp == "" {
			t.Fatalf("%+v", tb)
		}
	})
	t.Run("execution and heartbeat", func(t *testing.T) {
		m, err := DecodeMessage([]byte(`{"channel":"execution_data","payload":{"market":"SOLUSD","price":"150.01","amount":"3","executed_at":"2024-01-02T03:04:05Z"}}`))
		if ex, ok := m.(*Execution); err != nil || !ok || ex.Price != "150.01" || ex.ExecutedAt == "" {
			t.Fatalf("%+v %v", m, err)
		}
		m, err = DecodeMessage([]byte(`{"channel":"heartbeat","payload":{"timestamp":"2024-01-02T03:04:05.000000001Z"}}`))
		if hb, ok := m.(*Heartbeat); err != nil || !ok || hb.Timestamp == "" {
			t.Fatalf("%+v %v", m, err)
		}
	})
	t.Run("reply", func(t *testing.T) {
		m, err := DecodeMessage([]byte(`{"type":"subscribe","channels":[
			{"type":"heartbeat","success":true},
			{"type":"market_data","params":{"market":"X"},"success":false,"error":{"code":"UNKNOWN_CHANNEL_PARAMS_CONFIGURATION","message":"unknown market"}},
			{"type":"execution_data","params":{"market":"BTCUSD"},"success":false}]}`))
		r, ok := m.(*Reply)
		if err != nil || !ok || r.Type != OpSubscribe || len(r.Channels) != 3 {
			t.Fatalf("%+v %v", m, err)
		}
		if !r.Channels[0].Success || r.Channels[0].Channel != (Channel{Type: ChannelHeartbeat}) {
			t.Errorf("0: %+v", r.Channels[0])
		}
		if c := r.Channels[1]; c.Success || c.Channel.Market != "X" || c.Code != CodeUnknownChannelParamsConfiguration || c.Message != "unknown market" {
			t.Errorf("1: %+v", c)
		}
		if c := r.Channels[2]; c.Success || c.Code != "" {
			t.Errorf("2: %+v", c)
		}
	})
	t.Run("errors", func(t *testing.T) {
		cases := map[string]ServerError{
			`{"type":"error","code":"MALFORMED_REQUEST","message":"bad"}`:                 {Code: CodeMalformedRequest, Message: "bad"},
			`{"type":"error","code":"UNKNOWN_ACTION","request_type":"x"}`:                 {Op: "x", Code: CodeUnknownAction},
			`{"type":"error","error":{"code":"INTERNAL_SERVER_ERROR"}}`:                   {Code: CodeInternalServerError},
			`{"type":"subscribe","error":{"code":"NO_EFFECT_ACTION","message":"m"}}`:      {Op: OpSubscribe, Code: CodeNoEffectAction, Message: "m"},
			`{"type":"subscription_list","code":"INTERNAL_SERVER_ERROR","channels":null}`: {Op: OpSubscriptionList, Code: CodeInternalServerError},
		}
		for in, want := range cases {
			m, err := DecodeMessage([]byte(in))
			se, ok := m.(*ServerError)
			if err != nil || !ok || *se != want {
				t.Errorf("%s: %+v %v", in, m, err)
			}
		}
	})
	t.Run("rejected", func(t *testing.T) {
		for _, in := range []string{
			``, `null`, `[]`, `"x"`, `{}`, `{"type":7}`, `{"type":"nope"}`, `{"channel":"nope","payload":{}}`,
			`{"channel":"heartbeat"}`, `{"channel":"heartbeat","payload":[]}`, `{"channel":3,"payload":{}}`,
			`{"channel":"market_data","payload":{"type":"UPDATE"}}`,
			`{"channel":"market_data","payload":{"market":"X","bids":[{"price":"1"}]}}`,
			`{"channel":"market_data","payload":{"market":"X","bids":[["1"]]}}`,
			`{"channel":"market_data","payload":{"market":"X","bids":[{"price":true,"amount":"1"}]}}`,
			`{"type":"subscribe","channels":{}}`, `{"channel":"market_data","payload":{"market":"X"`,
		} {
			if m, err := DecodeMessage([]byte(in)); err == nil {
				t.Errorf("%q decoded to %+v", in, m)
			}
		}
	})
}

func FuzzDecodeMessage(f *testing.F) {
	for _, seed := range []string{
		`{"channel":"market_data","payload":{"market":"BTCUSD","type":"SNAPSHOT","time":"t","bids":[{"price":"1","amount":"2"}],"asks":[["3","4"]]}}`,
		`{"channel":"market_data.top_of_book","payload":{"market":"BTCUSD","type":"TOP_OF_BOOK","timestamp":"t","bids":[],"asks":[]}}`,
		`{"channel":"execution_data","payload":{"market":"BTCUSD","price":"1","amount":"2","executed_at":"t"}}`,
		`{"channel":"heartbeat","payload":{"timestamp":"t"}}`,
		`{"type":"subscribe","channels":[{"type":"heartbeat","success":true},{"type":"x","params":{"market":1},"success":"no","error":"e"}]}`,
		`{"type":"error","code":"MALFORMED_REQUEST","message":"m","request_type":"subscribe"}`,
		`{"type":"subscription_list","channels":[{"type":"heartbeat"}]}`,
		`[[[[`, `{"channel":null,"type":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMessage(data)
		if (err == nil) == (m == nil) {
			t.Fatalf("message %v and error %v", m, err)
		}
		if err != nil {
			return
		}
		switch v := m.(type) {
		case *MarketData:
			if v.Market == "" {
				t.Fatal("market data without market")
			}
		case *TopOfBook:
			if v.Market == "" {
				t.Fatal("top of book without market")
			}
		case *Execution:
			if v.Market == "" {
				t.Fatal("execution without market")
			}
		case *Heartbeat, *ServerError:
		case *Reply:
			switch v.Type {
			case OpSubscribe, OpUnsubscribe, OpSubscriptionList:
			default:
				t.Fatalf("reply of type %q", v.Type)
			}
		default:
			t.Fatalf("unexpected %T", m)
		}
	})
}

// TestChannelErrorBareCode: the API reference shows a refused channel's
// error as the bare code; a bare text that is not a code is the message.
func TestChannelErrorBareCode(t *testing.T) {
	m, err := DecodeMessage([]byte(`{"type":"subscribe","channels":[
		{"type":"market_data","params":{"market":"X"},"success":false,"error":"UNKNOWN_CHANNEL_PARAMS_CONFIGURATION"},
		{"type":"market_data","params":{"market":"Y"},"success":false,"error":"market Y is closed"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := m.(*Reply)
	if !ok || len(r.Channels) != 2 {
		t.Fatalf("decoded %#v", m)
	}
	if c := r.Channels[0]; c.Code != CodeUnknownChannelParamsConfiguration || c.Message != "" {
		t.Errorf("bare code decoded as code %q message %q", c.Code, c.Message)
	}
	if c := r.Channels[1]; c.Code != "" || c.Message != "market Y is closed" {
		t.Errorf("bare text decoded as code %q message %q", c.Code, c.Message)
	}
}

// TestMatchResultsWithoutParams: reply entries that do not echo params are
// matched by type, in order.
func TestMatchResultsWithoutParams(t *testing.T) {
	req := []Channel{{Type: "market_data", Market: "BTCUSD"}, {Type: "market_data.top_of_book", Market: "ETHUSD"}, {Type: "market_data", Market: "ETHUSD"}}
	entries := []ChannelStatus{
		{Channel: Channel{Type: "market_data.top_of_book"}, Success: true},
		{Channel: Channel{Type: "market_data"}, Success: true},
		{Channel: Channel{Type: "market_data"}, Success: false, Code: CodeNoEffectAction},
	}
	got := matchResults(req, entries)
	if !got[0].Success || !got[1].Success || got[2].Success || got[2].Code != CodeNoEffectAction {
		t.Errorf("results %+v", got)
	}
	// An entry with params for another market is never taken for this one.
	other := matchResults(req[:1], []ChannelStatus{{Channel: Channel{Type: "market_data", Market: "SOLUSD"}, Params: []byte(`{"market":"SOLUSD"}`), Success: true}})
	if other[0].Success {
		t.Errorf("matched an entry of another market: %+v", other)
	}
}
