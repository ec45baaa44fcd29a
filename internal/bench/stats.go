package main

import (
	"fmt"
	"slices"
	"time"
)

// median returns the median of d (0 for none).
func median(d []time.Duration) time.Duration { return percentile(d, 0.5) }

// percentile returns the p-quantile of d by the nearest-rank-below rule
// used by the stream package's benchmarks (0 for none).
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 0 && p == 0.5 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[int(p*float64(len(s)-1))]
}

// medianU returns the median of v (0 for none).
func medianU(v []uint64) uint64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// fmtDur prints d in milliseconds or seconds with three significant digits.
func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	default:
		return fmt.Sprintf("%.2f s", ms/1000)
	}
}

// fmtMB prints a byte count in MB (10^6 bytes).
func fmtMB(b uint64) string {
	mb := float64(b) / 1e6
	if mb < 10 {
		return fmt.Sprintf("%.1f MB", mb)
	}
	return fmt.Sprintf("%.0f MB", mb)
}

// fmtMiB prints b in mebibytes, with one decimal.
func fmtMiB(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// fmtCount prints n with thousands separators.
func fmtCount(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// ratio prints a/b with two decimals, or "n/a" when b is zero.
func ratio(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", a/b)
}
