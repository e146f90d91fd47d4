package intent

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

type webhookCase struct {
	Name     string                     `json:"name"`
	Headers  map[string]json.RawMessage `json:"headers"` // a value is a string, or an array for a repeated header
	Body     vBytes                     `json:"body"`
	Verifier struct {
		PartnerID   string   `json:"partnerId"`
		Secrets     []string `json:"secrets"`
		NowMs       int64    `json:"nowMs"`
		ToleranceMs int64    `json:"toleranceMs"`
	} `json:"verifier"`
	Expected struct {
		OK      bool   `json:"ok"`
		EventID string `json:"eventId"`
		Reason  string `json:"reason"`
	} `json:"expected"`
}

// header keeps the vectors' spelling of each name (no canonicalisation), so the lookup's case-insensitivity is
// what is tested.
func (c webhookCase) header(t *testing.T) http.Header {
	t.Helper()
	h := http.Header{}
	for name, raw := range c.Headers {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			h[name] = append(h[name], one)
			continue
		}
		var many []string
		if err := json.Unmarshal(raw, &many); err != nil {
			t.Fatalf("header %s: %s", name, raw)
		}
		h[name] = append(h[name], many...)
	}
	return h
}

func (c webhookCase) options() WebhookOptions {
	return WebhookOptions{PartnerID: c.Verifier.PartnerID, Secrets: c.Verifier.Secrets, NowMs: c.Verifier.NowMs, ToleranceMs: c.Verifier.ToleranceMs}
}

func checkWebhook(t *testing.T, c webhookCase, ev *WebhookEvent, err error) {
	t.Helper()
	if c.Expected.OK {
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if ev.EventID != c.Expected.EventID {
			t.Errorf("eventId %q, want %q", ev.EventID, c.Expected.EventID)
		}
		if !bytes.Equal(ev.Raw, c.Body.bytes(t)) {
			t.Error("Raw is not the body as received")
		}
		return
	}
	var werr *WebhookError
	if !errors.As(err, &werr) {
		t.Fatalf("got %v, %v; want rejection %s", ev, err, c.Expected.Reason)
	}
	if ev != nil || string(werr.Reason) != c.Expected.Reason {
		t.Errorf("rejected %s, want %s", werr.Reason, c.Expected.Reason)
	}
}

func loadWebhookCases(t *testing.T) []webhookCase {
	var file struct{ Cases []webhookCase }
	loadVectors(t, "webhooks.json", &file)
	return file.Cases
}

func TestWebhookVectors(t *testing.T) {
	cases := loadWebhookCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ev, err := VerifyWebhook(c.Body.bytes(t), c.header(t), c.options())
			checkWebhook(t, c, ev, err)
		})
	}
	checkCount(t, "webhooks.json", len(cases))
}

// The http.Handler helper on every case: the body is read once and returned as received.
func TestWebhookVectorsThroughHTTPRequest(t *testing.T) {
	cases := loadWebhookCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			body := c.Body.bytes(t)
			r := httptest.NewRequest(http.MethodPost, "/webhooks", bytes.NewReader(body))
			r.Header = c.header(t)
			ev, got, err := VerifyWebhookRequest(r, c.options())
			if !bytes.Equal(got, body) {
				t.Error("returned bytes differ from the body sent")
			}
			checkWebhook(t, c, ev, err)
		})
	}
	checkCount(t, "webhooks.json", len(cases))
}

// Canonicalised names, as net/http's server hands them to a handler, verify the same way.
func TestWebhookCanonicalHeaderNames(t *testing.T) {
	for _, c := range loadWebhookCases(t) {
		if !c.Expected.OK {
			continue
		}
		h := http.Header{}
		for name, vs := range c.header(t) {
			for _, v := range vs {
				h.Add(name, v)
			}
		}
		if _, err := VerifyWebhook(c.Body.bytes(t), h, c.options()); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

func TestWebhookDefaults(t *testing.T) {
	for _, c := range loadWebhookCases(t) {
		if c.Name != "valid" {
			continue
		}
		opts := c.options()
		opts.ToleranceMs = 0 // the default is the vectors' five minutes
		opts.NowMs += DefaultWebhookTolerance
		if _, err := VerifyWebhook(c.Body.bytes(t), c.header(t), opts); err != nil {
			t.Errorf("at the default tolerance: %v", err)
		}
		opts.NowMs -= 2*DefaultWebhookTolerance + 1 // the clock behind by more than the tolerance
		if _, err := VerifyWebhook(c.Body.bytes(t), c.header(t), opts); err == nil {
			t.Error("accepted a timestamp from the future beyond the tolerance")
		}
		opts = c.options()
		opts.Secrets = nil
		if _, err := VerifyWebhook(c.Body.bytes(t), c.header(t), opts); err == nil {
			t.Error("accepted with no secret")
		}
		return
	}
	t.Fatal(`no "valid" case`)
}

// body_invalid has no vector case: a correctly signed body that is not a JSON object with a string eventId.
func TestWebhookBodyInvalid(t *testing.T) {
	const secret, ts = "s", "1767225600000"
	for _, body := range []string{`not json`, `[1]`, `null`, `{"eventId":7}`, `{"event":"settled"}`} {
		h := http.Header{}
		h.Set(HeaderPartnerID, "p")
		h.Set(HeaderTimestamp, ts)
		h.Set(HeaderSignature, hmacHex(secret, TimestampDotBody(ts, []byte(body))))
		h.Set(HeaderEventID, "ev_01")
		_, err := VerifyWebhook([]byte(body), h, WebhookOptions{PartnerID: "p", Secrets: []string{secret}, NowMs: 1767225600000})
		var werr *WebhookError
		if !errors.As(err, &werr) || werr.Reason != WebhookBodyInvalid {
			t.Errorf("%s: %v", body, err)
		}
	}
}
