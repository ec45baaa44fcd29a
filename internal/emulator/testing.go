package emulator

import "testing"

// StartTest starts an emulator on 127.0.0.1:0 for the test tb and closes it
// when the test ends.
func StartTest(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		tb.Fatalf("start emulator: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}
