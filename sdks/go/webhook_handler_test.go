package intent

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func signedDelivery(t *testing.T, url, secret, eventID string, ts time.Time) *http.Request {
	t.Helper()
	body := `{"eventId":"` + eventID + `","event":"settled","attemptId":"at_1","partnerId":"p1","status":"settled"}`
	stamp := strconv.FormatInt(ts.UnixMilli(), 10)
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("X-Partner-Id", "p1")
	req.Header.Set("X-Timestamp", stamp)
	req.Header.Set("X-Signature", hmacHex(secret, TimestampDotBody(stamp, []byte(body))))
	req.Header.Set("X-Service-Event-Id", eventID)
	return req
}

// TestWebhookHandler: a forged delivery gets 401 {"error":"signature_invalid"}; a good one runs process once and
// is recorded in the file store (a second handler on the same file sees the duplicate); a failing process is 500
// and not recorded.
func TestWebhookHandler(t *testing.T) {
	var calls atomic.Int32
	fail := atomic.Bool{}
	store := &FileProcessedEventStore{Path: filepath.Join(t.TempDir(), "seen.txt")}
	opts := WebhookHandlerOptions{PartnerID: "p1", Secrets: []string{"s3cret"}, Processed: store}
	h := WebhookHandler(opts, func(ctx context.Context, ev *WebhookEvent) error {
		if ev.Event != WebhookEventKindSettled || ev.AttemptID != "at_1" || len(ev.Raw) == 0 {
			t.Errorf("event %+v", ev)
		}
		calls.Add(1)
		if fail.Load() {
			return errors.New("db down")
		}
		return nil
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	do := func(r *http.Request) (int, string) {
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := res.Body.Read(buf)
		b.Write(buf[:n])
		return res.StatusCode, strings.TrimSpace(b.String())
	}
	if st, body := do(signedDelivery(t, srv.URL, "wrong", "e1", time.Now())); st != 401 || body != `{"error":"signature_invalid"}` {
		t.Fatalf("forged: %d %s", st, body)
	}
	if st, body := do(signedDelivery(t, srv.URL, "s3cret", "e1", time.Now().Add(-time.Hour))); st != 401 || body != `{"error":"timestamp_expired"}` {
		t.Fatalf("stale: %d %s", st, body)
	}
	fail.Store(true)
	if st, _ := do(signedDelivery(t, srv.URL, "s3cret", "e1", time.Now())); st != 500 {
		t.Fatalf("failing process: %d", st)
	}
	fail.Store(false)
	if st, body := do(signedDelivery(t, srv.URL, "s3cret", "e1", time.Now())); st != 200 || body != `{"duplicate":false,"ok":true}` {
		t.Fatalf("good: %d %s", st, body)
	}
	srv2 := httptest.NewServer(WebhookHandler(opts, func(context.Context, *WebhookEvent) error { calls.Add(100); return nil }))
	defer srv2.Close()
	if st, body := do(signedDelivery(t, srv2.URL, "s3cret", "e1", time.Now())); st != 200 || body != `{"duplicate":true,"ok":true}` {
		t.Fatalf("duplicate: %d %s", st, body)
	}
	if calls.Load() != 2 {
		t.Fatalf("process ran %d", calls.Load())
	}
}

func TestParseRawAmount(t *testing.T) {
	n, err := ParseRawAmount("115792089237316195423570985008687907853269984665640564039457584007913129639935")
	if err != nil || RawAmount(n) != "115792089237316195423570985008687907853269984665640564039457584007913129639935" {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "-1", "1.5", "01", " 1", "115792089237316195423570985008687907853269984665640564039457584007913129639936"} {
		if _, err := ParseRawAmount(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
