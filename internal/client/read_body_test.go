package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadBodyIntoReusesItsBuffer checks that a body read into a buffer
// with room for it is read into that memory, whole, and that the size an
// answer announces changes neither the bytes read nor the limit.
func TestReadBodyIntoReusesItsBuffer(t *testing.T) {
	body := strings.Repeat("abcdefgh", 1000)
	buf := make([]byte, 0, 16<<10)
	for _, size := range []int64{-1, 0, int64(len(body)), 10, 1 << 30} {
		got, err := readBodyInto(buf, iotest.HalfReader(strings.NewReader(body)), size, 1<<20)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if string(got) != body {
			t.Fatalf("size %d: read %d bytes, want the %d of the body", size, len(got), len(body))
		}
		if size <= int64(len(body)) && &got[0] != &buf[:1][0] {
			t.Errorf("size %d: the body was read into new memory, not the buffer's", size)
		}
	}
	for _, size := range []int64{-1, 100, 101, 1 << 30} {
		_, err := readBodyInto(buf, strings.NewReader(strings.Repeat("x", 101)), size, 100)
		if !errors.Is(err, errBodyTooLarge) {
			t.Errorf("size %d: a body of 101 bytes over a limit of 100: err = %v, want errBodyTooLarge", size, err)
		}
	}
	got, err := readBodyInto(nil, bytes.NewReader(nil), -1, 100)
	if err != nil || len(got) != 0 {
		t.Errorf("empty body: %q, %v", got, err)
	}
}
