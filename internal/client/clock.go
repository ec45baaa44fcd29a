package client

import "time"

// clock is what the retries of a request read the time from and wait on: a
// Retry-After date is read against Now, and every wait between two
// attempts passes through pause. The client runs on realClock; tests give
// it a fake clock, on which a wait of ten minutes takes no time and the
// waits are exactly those the backoff computed.
type clock interface {
	Now() time.Time
	// pause returns how long go-retryablehttp's timer sleeps for a wait of
	// d between two attempts: d on the real clock, none on a clock that
	// moves by d itself.
	pause(d time.Duration) time.Duration
}

// realClock is the machine's clock; go-retryablehttp sleeps each wait.
type realClock struct{}

func (realClock) Now() time.Time                      { return time.Now() }
func (realClock) pause(d time.Duration) time.Duration { return d }
