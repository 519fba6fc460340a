package main

import (
	"math"
	"sort"
	"sync"
	"time"
)

// histogram records durations in log-spaced buckets (2 % wide, 1 µs to
// about 30 min), so that a long run keeps a few kilobytes, not every
// sample. Its methods are safe for concurrent use.
type histogram struct {
	mu     sync.Mutex
	counts []uint64
	n      uint64
	sum    time.Duration
	max    time.Duration
}

const (
	histMin    = float64(time.Microsecond)
	histGrowth = 1.02
)

var histBuckets = int(math.Ceil(math.Log(float64(30*time.Minute)/histMin)/math.Log(histGrowth))) + 1

func newHistogram() *histogram { return &histogram{counts: make([]uint64, histBuckets)} }

func bucketOf(d time.Duration) int {
	if float64(d) <= histMin {
		return 0
	}
	i := int(math.Log(float64(d)/histMin)/math.Log(histGrowth)) + 1
	return min(i, histBuckets-1)
}

// upper returns the upper bound of bucket i.
func upper(i int) time.Duration {
	return time.Duration(histMin * math.Pow(histGrowth, float64(i)))
}

// add records one sample.
func (h *histogram) add(d time.Duration) {
	d = max(d, 0)
	h.mu.Lock()
	h.counts[bucketOf(d)]++
	h.n++
	h.sum += d
	h.max = max(h.max, d)
	h.mu.Unlock()
}

// count returns how many samples were recorded.
func (h *histogram) count() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// quantile returns the q-quantile (0..1), accurate to the bucket width.
func (h *histogram) quantile(q float64) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(upper(i), h.max)
		}
	}
	return h.max
}

// total returns the sum of the samples.
func (h *histogram) total() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sum
}

// mean returns the mean sample.
func (h *histogram) mean() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// percentiles of a small sample, exactly.
func percentile(samples []time.Duration, q float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}
