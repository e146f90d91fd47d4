package intent

import (
	"bytes"
	"strconv"
	"strings"
)

// SSEMessage is one Server-Sent Events message, dispatched at its blank line.
type SSEMessage struct {
	// ID is the last event ID buffer when the message was dispatched (WHATWG: it persists across messages).
	ID string
	// Event is the `event:` field, "message" when the message had none.
	Event string
	// Data is the `data:` lines joined with LF.
	Data string
	// Retry is the last valid `retry:` value in milliseconds seen so far, -1 when none.
	Retry int64
}

// SSEParser parses text/event-stream incrementally, per the WHATWG HTML "Server-sent events" rules: feed it bytes
// as they arrive, cut anywhere (even inside a CRLF or a UTF-8 sequence), and it returns the messages completed so
// far. CRLF, CR and LF end a line; a leading BOM is dropped; comment lines (":") and messages without data are
// skipped; one space after the colon is removed; an id containing NUL is ignored; retry takes ASCII digits only.
type SSEParser struct {
	buf       []byte
	pendingCR bool
	started   bool
	lastID    string
	event     string
	data      strings.Builder
	hasData   bool
	retry     int64
	retrySeen bool
}

// NewSSEParser returns a parser at the start of a stream.
func NewSSEParser() *SSEParser { return &SSEParser{retry: -1} }

// Push feeds the next bytes and returns the messages they completed.
func (p *SSEParser) Push(chunk []byte) []SSEMessage {
	if p.retry == 0 && !p.retrySeen {
		p.retry = -1
	}
	if p.pendingCR && len(chunk) > 0 && chunk[0] == '\n' {
		chunk = chunk[1:]
	}
	if len(chunk) > 0 {
		p.pendingCR = chunk[len(chunk)-1] == '\r'
	}
	p.buf = append(p.buf, chunk...)
	if !p.started {
		if len(p.buf) < 3 && bytes.HasPrefix([]byte("\xEF\xBB\xBF"), p.buf) {
			return nil // could still be a BOM
		}
		p.buf = bytes.TrimPrefix(p.buf, []byte("\xEF\xBB\xBF"))
		p.started = true
	}
	var out []SSEMessage
	for {
		i := bytes.IndexAny(p.buf, "\r\n")
		if i < 0 {
			break
		}
		line := string(p.buf[:i])
		next := i + 1
		if p.buf[i] == '\r' && next < len(p.buf) && p.buf[next] == '\n' {
			next++
		}
		p.buf = p.buf[next:]
		if m, ok := p.line(line); ok {
			out = append(out, m)
		}
	}
	return out
}

func (p *SSEParser) line(line string) (SSEMessage, bool) {
	if line == "" {
		defer func() { p.event, p.hasData = "", false; p.data.Reset() }()
		if !p.hasData {
			return SSEMessage{}, false
		}
		ev := p.event
		if ev == "" {
			ev = "message"
		}
		data := strings.TrimSuffix(p.data.String(), "\n")
		return SSEMessage{ID: p.lastID, Event: ev, Data: data, Retry: p.retry}, true
	}
	if line[0] == ':' {
		return SSEMessage{}, false
	}
	field, value, found := strings.Cut(line, ":")
	if found {
		value = strings.TrimPrefix(value, " ")
	}
	switch field {
	case "data":
		p.data.WriteString(value)
		p.data.WriteByte('\n')
		p.hasData = true
	case "event":
		p.event = value
	case "id":
		if !strings.ContainsRune(value, 0) {
			p.lastID = value
		}
	case "retry":
		if isDigits(value, 18) {
			p.retry, _ = strconv.ParseInt(value, 10, 64)
			p.retrySeen = true
		}
	}
	return SSEMessage{}, false
}
