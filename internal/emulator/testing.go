package emulator

import (
	"bytes"
	"sync"
	"testing"
)

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

// LogBuffer is a log destination (Options.Log, or a command's stdout and
// stderr) that tests read while the emulator writes to it.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
