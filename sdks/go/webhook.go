package intent

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// DefaultWebhookTolerance is how far X-Timestamp may be from the receiver's clock, either way, in milliseconds
// (five minutes; docs/webhooks.md). A delivery exactly at the tolerance is accepted.
const DefaultWebhookTolerance int64 = 300_000

// WebhookRejection is why a delivery is refused. The values are the reasons of sdks/vectors/webhooks.json.
type WebhookRejection string

// The rejection reasons, in the order verification checks them.
const (
	WebhookHeaderMissing    WebhookRejection = "header_missing"
	WebhookHeaderDuplicated WebhookRejection = "header_duplicated"
	WebhookPartnerMismatch  WebhookRejection = "partner_mismatch"
	WebhookTimestampInvalid WebhookRejection = "timestamp_invalid"
	WebhookTimestampExpired WebhookRejection = "timestamp_expired"
	WebhookSignatureInvalid WebhookRejection = "signature_invalid"
	WebhookBodyInvalid      WebhookRejection = "body_invalid"
	WebhookEventIDMismatch  WebhookRejection = "event_id_mismatch"
)

// WebhookError is returned for a delivery that must not be processed. Answer it with a 4xx (401 for every
// reason but body_invalid and event_id_mismatch, which may be 400) and never act on the body.
type WebhookError struct {
	Reason WebhookRejection
	Header string // the header concerned, for header_missing and header_duplicated
}

func (e *WebhookError) Error() string {
	if e.Header != "" {
		return fmt.Sprintf("intent: webhook rejected: %s (%s)", e.Reason, e.Header)
	}
	return "intent: webhook rejected: " + string(e.Reason)
}

// WebhookOptions are the receiver's settings.
type WebhookOptions struct {
	PartnerID string
	// Secrets holds the partner secret; during a rotation, the new one and the one being retired (a signature by
	// either is accepted). Every secret is tried, so the time taken does not tell which one matched.
	Secrets []string
	// NowMs is the receiver's clock in epoch milliseconds (inject it; see time.Now().UnixMilli()).
	NowMs int64
	// ToleranceMs defaults to DefaultWebhookTolerance when 0.
	ToleranceMs int64
}

// WebhookEvent is a verified delivery: the body decoded into the contract's WebhookEvent schema (WebhookPayload:
// eventId, event, occurredAt and the attempt snapshot), and Raw, the exact body bytes, so the payload can also be
// decoded into the caller's own type. Unknown fields are tolerated.
type WebhookEvent struct {
	WebhookPayload
	Raw json.RawMessage `json:"-"`
}

// header returns the only value of name (case-insensitive) in h, whatever the spelling of its keys.
func header(h http.Header, name string) (string, *WebhookError) {
	var values []string
	for k, vs := range h {
		if strings.EqualFold(k, name) {
			values = append(values, vs...)
		}
	}
	if len(values) > 1 {
		return "", &WebhookError{Reason: WebhookHeaderDuplicated, Header: name}
	}
	if len(values) == 0 || values[0] == "" {
		return "", &WebhookError{Reason: WebhookHeaderMissing, Header: name}
	}
	return values[0], nil
}

func isDigits(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isLowerHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// VerifyWebhook checks a delivery over its raw body bytes, before anything is parsed: the partner id, the
// timestamp (within the tolerance), the signature (HMAC-SHA256 of "<X-Timestamp>.<body>", constant-time, any of
// the secrets), then that the body is a JSON object whose eventId equals X-Service-Event-Id. It returns the event,
// or a *WebhookError. Deduplicating by EventID and persisting before answering 2xx are the receiver's part.
func VerifyWebhook(body []byte, h http.Header, opts WebhookOptions) (*WebhookEvent, error) {
	var got [4]string
	for i, name := range []string{HeaderPartnerID, HeaderTimestamp, HeaderSignature, HeaderEventID} {
		v, err := header(h, name)
		if err != nil {
			return nil, err
		}
		got[i] = v
	}
	partnerID, timestamp, signature, eventID := got[0], got[1], got[2], got[3]
	if partnerID != opts.PartnerID {
		return nil, &WebhookError{Reason: WebhookPartnerMismatch}
	}
	if !isDigits(timestamp, 16) {
		return nil, &WebhookError{Reason: WebhookTimestampInvalid}
	}
	ts, _ := strconv.ParseInt(timestamp, 10, 64) // at most 16 digits: never overflows
	tolerance := opts.ToleranceMs
	if tolerance == 0 {
		tolerance = DefaultWebhookTolerance
	}
	if d := opts.NowMs - ts; d > tolerance || -d > tolerance {
		return nil, &WebhookError{Reason: WebhookTimestampExpired}
	}
	if !isLowerHex64(signature) {
		return nil, &WebhookError{Reason: WebhookSignatureInvalid}
	}
	want, _ := hex.DecodeString(signature)
	msg := TimestampDotBody(timestamp, body)
	matched := false
	for _, secret := range opts.Secrets {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(msg)
		if hmac.Equal(m.Sum(nil), want) { // no early exit: every secret is tried
			matched = true
		}
	}
	if !matched {
		return nil, &WebhookError{Reason: WebhookSignatureInvalid}
	}

	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return nil, &WebhookError{Reason: WebhookBodyInvalid}
	}
	var ev WebhookEvent
	if raw, ok := fields["eventId"]; !ok || json.Unmarshal(raw, &ev.EventID) != nil {
		return nil, &WebhookError{Reason: WebhookBodyInvalid}
	}
	_ = json.Unmarshal(body, &ev) // the other envelope fields, best effort (eventId is already a string)
	if ev.EventID != eventID {
		return nil, &WebhookError{Reason: WebhookEventIDMismatch}
	}
	ev.Raw = append(json.RawMessage(nil), body...)
	return &ev, nil
}

// MaxWebhookBody bounds what VerifyWebhookRequest reads (deliveries are a few KiB).
const MaxWebhookBody = 1 << 20

// VerifyWebhookRequest reads r's body once (at most MaxWebhookBody bytes) and verifies it with VerifyWebhook.
// It returns the event and the exact bytes read, for use in any http.Handler:
//
//	ev, body, err := intent.VerifyWebhookRequest(r, opts)
//	var werr *intent.WebhookError
//	if errors.As(err, &werr) { http.Error(w, string(werr.Reason), http.StatusUnauthorized); return }
func VerifyWebhookRequest(r *http.Request, opts WebhookOptions) (*WebhookEvent, []byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxWebhookBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("intent: reading webhook body: %w", err)
	}
	if len(body) > MaxWebhookBody {
		return nil, body, &WebhookError{Reason: WebhookBodyInvalid}
	}
	ev, err := VerifyWebhook(body, r.Header, opts)
	return ev, body, err
}
