package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// A client's reading of a text/event-stream, as the Mini App's page reads
// /api/stream (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// lines of "field: value", a blank line dispatching the event the lines
// before it built, comments (":...") ignored. Lines end in LF or CR LF; a
// lone CR, which the spec allows too, is not taken as a line's end (our
// server never writes one: bot/webapp/live splits a view's lines on it).

// maxSSELine bounds one line of a stream: a whole view is one data line,
// a few KiB.
const maxSSELine = 1 << 20

// sseEvent is an event as a client dispatches it.
type sseEvent struct {
	// ID is the last event id the stream set (it carries over from one
	// event to the next until a new id line), Event the event's type (""
	// for the default, "message"), Data its data lines joined by LF.
	ID    string
	Event string
	Data  []byte
	// Size is how many bytes of the stream the event took: its lines and
	// the blank line that ended it, comments between them included.
	Size int
}

// sseReader reads the events of a stream. It is not safe for concurrent
// use.
type sseReader struct {
	r *bufio.Reader
	// read counts every byte read, comments and empty blocks included.
	read int64
	// lastID is the last event id set; retry the last reconnection time
	// (0 while the stream sent none).
	lastID string
	retry  time.Duration

	line  []byte // a line longer than the reader's buffer
	data  bytes.Buffer
	event string
	size  int
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event that has data; an error when the stream
// ends (io.EOF at a clean end, io.ErrUnexpectedEOF in an event's middle)
// or a line passes maxSSELine.
func (s *sseReader) next() (sseEvent, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && s.size > 0 {
				err = io.ErrUnexpectedEOF // an event never dispatched is dropped
			}
			return sseEvent{}, err
		}
		s.size += len(line)
		body := trimEOL(line)
		if len(body) > 0 {
			s.field(body)
			continue
		}
		// A blank line: dispatch the event, if it has data.
		ev := sseEvent{ID: s.lastID, Event: s.event, Size: s.size}
		has := s.data.Len() > 0
		if has {
			d := s.data.Bytes()
			ev.Data = append([]byte(nil), d[:len(d)-1]...) // the last LF off
		}
		s.data.Reset()
		s.event, s.size = "", 0
		if has {
			return ev, nil
		}
	}
}

// field takes one line of an event.
func (s *sseReader) field(line []byte) {
	if line[0] == ':' {
		return // a comment
	}
	name, value, found := bytes.Cut(line, []byte(":"))
	if found && len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	switch string(name) {
	case "data":
		s.data.Write(value)
		s.data.WriteByte('\n')
	case "event":
		s.event = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			s.lastID = string(value)
		}
	case "retry":
		if ms, err := strconv.ParseUint(string(value), 10, 32); err == nil && isDigits(value) {
			s.retry = time.Duration(ms) * time.Millisecond
		}
	}
}

// readLine returns the next line with its end (LF or CR LF); io.EOF when
// the stream ends, a partial last line dropped as the spec drops it.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.read += int64(len(chunk))
		if (err == nil || errors.Is(err, bufio.ErrBufferFull)) && len(s.line)+len(chunk) > maxSSELine {
			return nil, fmt.Errorf("a line of the stream passes %d bytes", maxSSELine)
		}
		switch {
		case err == nil && len(s.line) == 0:
			return chunk, nil
		case err == nil:
			return append(s.line, chunk...), nil
		case errors.Is(err, bufio.ErrBufferFull):
			s.line = append(s.line, chunk...)
		default:
			return nil, err
		}
	}
}

// trimEOL returns line without its LF or CR LF.
func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
