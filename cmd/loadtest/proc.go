package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// memStatus is a process's memory as /proc/PID/status has it, in bytes.
type memStatus struct {
	// RSS is resident, Peak the highest RSS (VmHWM).
	RSS, Peak int64
	// Anon is the resident anonymous memory (the heap, stacks), File the
	// resident file pages (the database's memory map among them).
	Anon, File int64
}

// readMem reads the memory of a process ("self" for this one).
func readMem(pid string) (memStatus, error) {
	var m memStatus
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return m, fmt.Errorf("reading the memory of process %s: %w", pid, err)
	}
	defer f.Close()
	fields := map[string]*int64{"VmRSS": &m.RSS, "VmHWM": &m.Peak, "RssAnon": &m.Anon, "RssFile": &m.File}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		name, value, ok := strings.Cut(line, ":")
		dst := fields[name]
		if !ok || dst == nil {
			continue
		}
		v := strings.Fields(value)
		if len(v) == 0 {
			continue
		}
		kb, err := strconv.ParseInt(v[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("process %s: %s: %w", pid, line, err)
		}
		*dst = kb << 10
	}
	return m, sc.Err()
}

// procStatus reads VmRSS and VmHWM (peak RSS) of a process, in bytes.
func procStatus(pid string) (rss, peak int64, err error) {
	m, err := readMem(pid)
	return m.RSS, m.Peak, err
}

// scrapeGauge reads one unlabelled gauge (go_goroutines) from a Prometheus
// text endpoint.
func scrapeGauge(ctx context.Context, url, name string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("scraping %s: %w", url, err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %q: %w", url, line, err)
			}
			return v, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s has no %s", url, name)
}

// procWriteBytes reads how many bytes a process caused to be written to
// storage, from /proc/PID/io.
func procWriteBytes(pid string) (int64, error) {
	data, err := os.ReadFile("/proc/" + pid + "/io")
	if err != nil {
		return 0, fmt.Errorf("reading the I/O of process %s: %w", pid, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("process %s: no write_bytes", pid)
}

// fetch copies what a GET of url answers to w.
func fetch(ctx context.Context, url string, w io.Writer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
