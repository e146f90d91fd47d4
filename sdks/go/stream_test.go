package intent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestSSEParserChunkBoundaries: the same stream cut at every position into two chunks, and byte by byte, parses
// to the same messages (multi-line data, comments, CRLF/CR/LF, BOM, id persistence, retry, an id with NUL).
func TestSSEParserChunkBoundaries(t *testing.T) {
	stream := "\xEF\xBB\xBF: heartbeat\r\nid: 1\r\nevent: wallet_submitted\r\ndata: {\"a\":1,\r\ndata:  \"b\":2}\r\n\r\n" +
		"retry: 1500\nevent: provider_pending\ndata:x\n\n" + // no id: the last one persists
		"id\rdata\r\r" + // an empty id resets it; an empty data line
		"id: bad\x00id\nretry: 12a\ndata: y\n\n" +
		"data: never dispatched without a blank line"
	want := []SSEMessage{
		{ID: "1", Event: "wallet_submitted", Data: "{\"a\":1,\n \"b\":2}", Retry: -1},
		{ID: "1", Event: "provider_pending", Data: "x", Retry: 1500},
		{ID: "", Event: "message", Data: "", Retry: 1500},
		{ID: "", Event: "message", Data: "y", Retry: 1500},
	}
	check := func(name string, chunks [][]byte) {
		p := NewSSEParser()
		var got []SSEMessage
		for _, c := range chunks {
			got = append(got, p.Push(c)...)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
	b := []byte(stream)
	for i := 0; i <= len(b); i++ {
		check(fmt.Sprintf("cut at %d", i), [][]byte{b[:i], b[i:]})
	}
	var bytewise [][]byte
	for i := range b {
		bytewise = append(bytewise, b[i:i+1])
	}
	check("byte by byte", bytewise)
}

func sseEvent(id, event, status string) string {
	return fmt.Sprintf("id: %s\nevent: %s\ndata: {\"eventId\":%q,\"event\":%q,\"attemptId\":\"at_1\",\"status\":%q}\n\n", id, event, id, event, status)
}

func sseAnswer(body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		io.WriteString(w, body)
	}
}

// TestAttemptEventsReconnects: a stream that ends early, then a 503, are followed by reconnects carrying
// Last-Event-ID of the last event received; the iteration ends at the terminal event with each event once.
func TestAttemptEventsReconnects(t *testing.T) {
	s := newScripted(t,
		sseAnswer(": hi\n\n"+sseEvent("ev1", "wallet_submitted", "submitted")),        // ends early
		jsonAnswer(200, `{"apiVersion":"1","attemptId":"at_1","status":"submitted"}`), // the status check: not ended
		jsonAnswer(503, errorBody("dependency_unavailable"), "Retry-After", "2"),
		sseAnswer(sseEvent("ev1", "wallet_submitted", "submitted")+sseEvent("ev2", "provider_pending", "submitted")+sseEvent("ev3", "settled", "settled")+sseEvent("ev4", "never", "x")),
	)
	c, sl := newTestClient(t, s.srv.URL, Options{})
	var got []string
	for ev, err := range c.AttemptEvents(context.Background(), "at_1") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.ID+":"+string(ev.Event)+":"+string(ev.Data.Status))
	}
	if strings.Join(got, ",") != "ev1:wallet_submitted:submitted,ev2:provider_pending:submitted,ev3:settled:settled" {
		t.Fatalf("events %v", got)
	}
	tries := s.got()
	if len(tries) != 4 || tries[0].lastEventID != "" || tries[1].path != "/api/external/attempts/at_1/status" ||
		tries[2].lastEventID != "ev1" || tries[3].lastEventID != "ev1" || tries[2].nonce == tries[3].nonce {
		t.Fatalf("tries %+v", tries)
	}
	if len(sl.d) != 2 || sl.d[1] < 2e9 {
		t.Fatalf("waits %v (Retry-After 2 s not honoured)", sl.d)
	}
}

// TestAttemptEventsEnds: an expired attempt (stream ends, status terminal) ends the iteration; a 404 is yielded as
// *APIError at once; WithLastEventID resumes; breaking out stops.
func TestAttemptEventsEnds(t *testing.T) {
	s := newScripted(t, sseAnswer(""), jsonAnswer(200, `{"apiVersion":"1","attemptId":"at_1","status":"expired"}`))
	c, _ := newTestClient(t, s.srv.URL, Options{})
	for _, err := range c.AttemptEvents(context.Background(), "at_1", WithLastEventID("ev9")) {
		t.Fatalf("unexpected %v", err)
	}
	if tr := s.got(); len(tr) != 2 || tr[0].lastEventID != "ev9" {
		t.Fatalf("%+v", tr)
	}

	s404 := newScripted(t, jsonAnswer(404, errorBody("attempt_not_found")))
	c404, _ := newTestClient(t, s404.srv.URL, Options{})
	n := 0
	for _, err := range c404.AttemptEvents(context.Background(), "at_x") {
		n++
		var ae *APIError
		if !errors.As(err, &ae) || ae.Code != "attempt_not_found" || !errors.Is(err, KindNotFound) {
			t.Fatalf("%v", err)
		}
	}
	if n != 1 || len(s404.got()) != 1 {
		t.Fatalf("404: %d yields, %d tries", n, len(s404.got()))
	}

	sb := newScripted(t, sseAnswer(sseEvent("ev1", "wallet_submitted", "submitted")+sseEvent("ev2", "provider_pending", "submitted")))
	cb, _ := newTestClient(t, sb.srv.URL, Options{})
	for ev := range cb.AttemptEvents(context.Background(), "at_1") {
		if ev.ID != "ev1" {
			t.Fatal(ev.ID)
		}
		break
	}
	if len(sb.got()) != 1 {
		t.Fatal("a stopped iteration reconnected")
	}
}

// TestPagers: AllAttempts sends each nextCursor back byte for byte with the same filters until null;
// AllWebhookEvents follows webhookEventsAfter while hasMore.
func TestPagers(t *testing.T) {
	cur := "eyJ2IjoxfQ_-" // opaque; base64url alphabet
	s := newScripted(t,
		jsonAnswer(200, `{"apiVersion":"1","attempts":[{"attemptId":"at_2"}],"nextCursor":"`+cur+`"}`),
		jsonAnswer(200, `{"apiVersion":"1","attempts":[{"attemptId":"at_1"}],"nextCursor":null}`),
	)
	c, _ := newTestClient(t, s.srv.URL, Options{})
	one := int64(1)
	var ids []string
	for a, err := range c.AllAttempts(context.Background(), AttemptSearchRequest{WalletAddress: "0xabc", Limit: &one}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.AttemptID)
	}
	tr := s.got()
	if strings.Join(ids, ",") != "at_2,at_1" || len(tr) != 2 || string(tr[0].body) != `{"limit":1,"walletAddress":"0xabc"}` ||
		string(tr[1].body) != `{"cursor":"`+cur+`","limit":1,"walletAddress":"0xabc"}` || tr[0].key == tr[1].key {
		t.Fatalf("%v %+v", ids, tr)
	}

	w := newScripted(t,
		jsonAnswer(200, `{"apiVersion":"1","events":[{"eventId":"e1"}],"hasMore":true,"nextCursor":"`+cur+`"}`),
		jsonAnswer(200, `{"apiVersion":"1","events":[{"eventId":"e2"}],"hasMore":false,"nextCursor":"c2"}`),
	)
	cw, _ := newTestClient(t, w.srv.URL, Options{})
	ids = nil
	for e, err := range cw.AllWebhookEvents(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.EventID)
	}
	wt := w.got()
	if strings.Join(ids, ",") != "e1,e2" || len(wt) != 2 || wt[0].path != "/api/external/webhooks/events" || wt[1].path != "/api/external/webhooks/events/after/"+cur {
		t.Fatalf("%v %+v", ids, wt)
	}
}
