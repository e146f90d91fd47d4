package intent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"time"
)

// StreamEvent is one lifecycle event of the live status stream: the same id, kind and body as its webhook.
type StreamEvent struct {
	// ID is the event id (equal to the webhook's eventId): pass it to WithLastEventID to resume after it.
	ID    string
	Event WebhookEventKind
	// Data is the event body (the webhook body); Raw its exact bytes.
	Data WebhookPayload
	Raw  json.RawMessage
}

// StreamOption adjusts AttemptEvents.
type StreamOption func(*streamOptions)

type streamOptions struct{ lastEventID string }

// WithLastEventID resumes after this event id (e.g. the last one a previous process saw).
func WithLastEventID(id string) StreamOption { return func(o *streamOptions) { o.lastEventID = id } }

// terminal attempt statuses and the events that announce them.
func isTerminalStatus(s AttemptStatus) bool {
	return s == AttemptStatusSettled || s == AttemptStatusFailed || s == AttemptStatusExpired
}

func isTerminalEvent(e WebhookEventKind) bool {
	return e == WebhookEventKindSettled || e == WebhookEventKindFailed
}

// A connection open at least this long before it ended does not count towards the retry limit.
const longLivedStream = 10 * time.Second

// AttemptEvents follows GET /attempts/{attemptId}/events (Server-Sent Events) until the attempt ends: each
// lifecycle event once, in order. When the connection drops or the server ends the stream early, it reconnects
// with a fresh signature and Last-Event-ID set to the last event received, so nothing is missed or repeated; 5xx
// and 429 are retried with the client's backoff (Retry-After honoured). An attempt that ends without an announcing
// event (expired) ends the iteration too. A refusal a reconnect cannot change (404, 401...) is yielded as an
// *APIError, and the iteration stops; so does the end of ctx (its error is yielded). Breaking out of the loop
// closes the connection.
//
//	for ev, err := range client.AttemptEvents(ctx, attemptID) {
//		if err != nil { return err }
//		fmt.Println(ev.Event, ev.Data.Status)
//	}
func (c *Client) AttemptEvents(ctx context.Context, attemptID string, opts ...StreamOption) iter.Seq2[StreamEvent, error] {
	var o streamOptions
	for _, f := range opts {
		f(&o)
	}
	return func(yield func(StreamEvent, error) bool) {
		_, path, err := c.route("attemptEvents", attemptID)
		if err != nil {
			yield(StreamEvent{}, err)
			return
		}
		lastID := o.lastEventID
		failures := 0
		for {
			opened := c.now()
			done, stop, ans, err := c.streamOnce(ctx, path, &lastID, &failures, yield)
			if stop || done {
				return
			}
			if ctx.Err() != nil {
				yield(StreamEvent{}, ctx.Err())
				return
			}
			if ans == nil && err == nil {
				// A clean end before the attempt ended: a restart or a proxy. Has the attempt ended meanwhile?
				st, serr := c.Status(ctx, attemptID)
				if serr == nil && isTerminalStatus(st.Status) {
					return
				}
				if c.now().Sub(opened) >= longLivedStream {
					failures = 0
				}
				err = errors.New("intent: the stream ended before the attempt did")
			}
			delay, retry := c.retryDelay(ans, failures)
			if !retry {
				if ans != nil {
					yield(StreamEvent{}, decodeAnswer(ans, nil))
				} else {
					yield(StreamEvent{}, &NoResponseError{Method: "GET", Path: path, Tries: failures + 1, Err: err})
				}
				return
			}
			failures++
			if err := c.sleep(ctx, delay); err != nil {
				yield(StreamEvent{}, err)
				return
			}
		}
	}
}

// streamOnce opens the stream once and yields its events. done: a terminal event was seen; stop: the consumer
// stopped. ans is a non-200 answer; err a transport failure; both nil for a clean end of the stream.
func (c *Client) streamOnce(ctx context.Context, path string, lastID *string, failures *int, yield func(StreamEvent, error) bool) (done, stop bool, ans *answer, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hr, err := c.signedRequest(ctx, Request{Method: "GET", Path: path})
	if err != nil {
		return false, false, nil, err
	}
	hr.Header.Set("Accept", "text/event-stream")
	if *lastID != "" {
		hr.Header.Set("Last-Event-ID", *lastID)
	}
	res, err := c.http.Do(hr)
	if err != nil {
		return false, false, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		return false, false, &answer{res.StatusCode, res.Header, body}, nil
	}
	parser := NewSSEParser()
	buf := make([]byte, 32<<10)
	for {
		n, rerr := res.Body.Read(buf)
		for _, m := range parser.Push(buf[:n]) {
			var data WebhookPayload
			if m.ID == "" || m.ID == *lastID || json.Unmarshal([]byte(m.Data), &data) != nil {
				continue // not a lifecycle event (or one already yielded)
			}
			*lastID = m.ID
			*failures = 0
			ev := StreamEvent{ID: m.ID, Event: WebhookEventKind(m.Event), Data: data, Raw: json.RawMessage(m.Data)}
			if !yield(ev, nil) {
				return false, true, nil, nil
			}
			if isTerminalEvent(ev.Event) {
				return true, false, nil, nil
			}
		}
		if rerr == io.EOF {
			return false, false, nil, nil
		}
		if rerr != nil {
			return false, false, nil, rerr
		}
	}
}
