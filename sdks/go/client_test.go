package intent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// try is one request as the scripted server saw it.
type try struct {
	method, path, key, nonce, timestamp, lastEventID string
	body                                             []byte
}

// scripted is a loopback server that checks every try's signature (as the service would) and answers from a
// script, one handler per try (the last one repeats).
type scripted struct {
	t      *testing.T
	mu     sync.Mutex
	tries  []try
	script []func(w http.ResponseWriter, r *http.Request)
	srv    *httptest.Server
}

const testPartner, testSecret = "p1", "s3cret"

func newScripted(t *testing.T, script ...func(w http.ResponseWriter, r *http.Request)) *scripted {
	s := &scripted{t: t, script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		tr := try{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), r.Header.Get("X-Nonce"), r.Header.Get("X-Timestamp"), r.Header.Get("Last-Event-ID"), body}
		// Re-sign what was received: the signature must match the bytes, key, timestamp and nonce sent.
		want, err := SignRequest(Credentials{PartnerID: testPartner, Secret: testSecret}, Request{Method: r.Method, Path: r.URL.Path, Body: body, IdempotencyKey: tr.key}, tr.timestamp, tr.nonce)
		if err != nil || want.Signature != r.Header.Get("X-Signature") || r.Header.Get("X-Partner-Id") != testPartner {
			t.Errorf("try %s %s: bad signature", r.Method, r.URL.Path)
		}
		s.mu.Lock()
		n := len(s.tries)
		s.tries = append(s.tries, tr)
		s.mu.Unlock()
		if n >= len(s.script) {
			n = len(s.script) - 1
		}
		s.script[n](w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) got() []try {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]try(nil), s.tries...)
}

func jsonAnswer(status int, body string, headers ...string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func errorBody(code string) string {
	return fmt.Sprintf(`{"apiVersion":"1","error":"x","code":%q,"message":"m","path":"/p","requestId":"r1"}`, code)
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter, r *http.Request) {
	conn, _, _ := w.(http.Hijacker).Hijack()
	conn.Close()
}

// sleeps records the waits instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newTestClient(t *testing.T, base string, o Options) (*Client, *sleeps) {
	t.Helper()
	sl := &sleeps{}
	o.BaseURL, o.PartnerID, o.Secret = base, testPartner, testSecret
	if o.Sleep == nil {
		o.Sleep = sl.sleep
	}
	if o.RetryMaxDelay == 0 {
		o.RetryMaxDelay = time.Minute
	}
	c, err := NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	return c, sl
}

const pingOK = `{"apiVersion":"1","ok":true,"partnerId":"p1"}`
const quoteOK = `{"apiVersion":"1","quoteStatus":"ready","intentSessionId":"is_1","expiresAt":"x","coverageMode":"full","allocationPlan":{"legs":[]},"selectedPlan":null,"failedSources":[],"routeEvaluations":[]}`

func testQuote() QuoteRequest {
	return QuoteRequest{WalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		Sources: []SourceInput{{ChainID: 1, Address: "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35", Amount: "5000000", Decimals: 6}},
		Target:  &TargetInput{ChainID: 8453, Address: "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35"}}
}

// TestOperationsMatchOpenAPI: every operationId of docs/openapi.json is mapped to a method *Client has, and
// nothing else is mapped.
func TestOperationsMatchOpenAPI(t *testing.T) {
	raw, err := os.ReadFile(openAPIPath())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, methods := range doc.Paths {
		for _, op := range methods {
			ids[op.OperationID] = true
		}
	}
	ct := reflect.TypeOf(&Client{})
	for id := range ids {
		m, ok := Operations[id]
		if !ok {
			t.Errorf("operation %s is not in Operations", id)
			continue
		}
		if _, ok := ct.MethodByName(m); !ok {
			t.Errorf("operation %s: *Client has no method %s", id, m)
		}
		if _, ok := operationRoutes[id]; !ok {
			t.Errorf("operation %s has no generated route", id)
		}
	}
	for id := range Operations {
		if !ids[id] {
			t.Errorf("Operations maps %s, which docs/openapi.json does not have", id)
		}
	}
	checkCount(t, "openapi.json operations", len(ids))
}

// TestDeploymentPrefix: the base URL's path comes before /api/external, as paths.json's prefix case says.
func TestDeploymentPrefix(t *testing.T) {
	s := newScripted(t, jsonAnswer(200, pingOK))
	c, _ := newTestClient(t, s.srv.URL+"/partner-gateway/", Options{})
	p, err := c.Ping(context.Background())
	if err != nil || !p.OK || p.PartnerID != "p1" {
		t.Fatalf("ping: %+v %v", p, err)
	}
	if got := s.got()[0].path; got != "/partner-gateway/api/external/ping" {
		t.Fatalf("path %s", got)
	}
	if _, err := NewClient(Options{BaseURL: "ftp://x", PartnerID: "a", Secret: "b"}); err == nil {
		t.Fatal("ftp base URL accepted")
	}
}

// TestRetrySameKeyAndBytes: a transport failure, a 503 and a 429 are retried with the same key and bytes, each try
// freshly signed (a different nonce), and the 2xx is decoded.
func TestRetrySameKeyAndBytes(t *testing.T) {
	s := newScripted(t, hangUp, jsonAnswer(503, errorBody("dependency_unavailable")), jsonAnswer(429, errorBody("rate_limited")), jsonAnswer(200, quoteOK))
	c, sl := newTestClient(t, s.srv.URL, Options{})
	q, err := c.Quote(context.Background(), testQuote())
	if err != nil || q.IntentSessionID != "is_1" {
		t.Fatalf("quote: %+v %v", q, err)
	}
	tries := s.got()
	if len(tries) != 4 || len(sl.d) != 3 {
		t.Fatalf("%d tries, %d waits", len(tries), len(sl.d))
	}
	nonces := map[string]bool{}
	for _, tr := range tries {
		if tr.key != tries[0].key || string(tr.body) != string(tries[0].body) || tr.key == "" {
			t.Errorf("try changed key or bytes: %q %s", tr.key, tr.body)
		}
		nonces[tr.nonce] = true
	}
	if len(nonces) != 4 {
		t.Errorf("nonces reused: %v", nonces)
	}
}

// TestIdempotencyVectors answers each refusal of idempotency.json on the first try: in_progress is retried after
// its Retry-After with the same key and bytes; idempotency_key_reused (and every other 4xx) is not retried.
func TestIdempotencyVectors(t *testing.T) {
	var file struct {
		Scenarios []struct {
			Name     string `json:"name"`
			Expected struct {
				Outcome           string `json:"outcome"`
				Status            int    `json:"status"`
				Code              string `json:"code"`
				RetryAfterSeconds int    `json:"retryAfterSeconds"`
			} `json:"expected"`
		} `json:"scenarios"`
	}
	loadVectors(t, "idempotency.json", &file)
	n := 0
	for _, sc := range file.Scenarios {
		if sc.Expected.Outcome != "refused" {
			continue
		}
		n++
		t.Run(sc.Name, func(t *testing.T) {
			e := sc.Expected
			var hdr []string
			if e.RetryAfterSeconds > 0 {
				hdr = []string{"Retry-After", fmt.Sprint(e.RetryAfterSeconds)}
			}
			s := newScripted(t, jsonAnswer(e.Status, errorBody(e.Code), hdr...), jsonAnswer(200, quoteOK))
			c, sl := newTestClient(t, s.srv.URL, Options{})
			_, err := c.Quote(context.Background(), testQuote())
			tries := s.got()
			if e.Code == CodeIdempotencyRequestInProgress {
				if err != nil || len(tries) != 2 || tries[1].key != tries[0].key || string(tries[1].body) != string(tries[0].body) {
					t.Fatalf("in progress: %v, %d tries", err, len(tries))
				}
				if len(sl.d) != 1 || sl.d[0] < time.Duration(e.RetryAfterSeconds)*time.Second {
					t.Fatalf("waited %v, Retry-After %ds", sl.d, e.RetryAfterSeconds)
				}
				return
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.Code != e.Code || ae.Status != e.Status || len(tries) != 1 {
				t.Fatalf("got %v after %d tries, want %d %s once", err, len(tries), e.Status, e.Code)
			}
			if !errors.Is(err, KindConflict) {
				t.Fatalf("%s is not a conflict", e.Code)
			}
		})
	}
	checkCount(t, "idempotency.json refusals", n)
}

// TestRetryAfterHTTPDate: an HTTP-date Retry-After is honoured too, and capped by RetryMaxDelay.
func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newScripted(t, jsonAnswer(503, errorBody("dependency_unavailable"), "Retry-After", now.Add(7*time.Second).Format(http.TimeFormat)), jsonAnswer(200, pingOK))
	c, sl := newTestClient(t, s.srv.URL, Options{Now: func() time.Time { return now }})
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(sl.d) != 1 || sl.d[0] != 7*time.Second {
		t.Fatalf("waits %v", sl.d)
	}
	s2 := newScripted(t, jsonAnswer(429, errorBody("rate_limited"), "Retry-After", "3600"), jsonAnswer(200, pingOK))
	c2, sl2 := newTestClient(t, s2.srv.URL, Options{RetryMaxDelay: 2 * time.Second})
	if _, err := c2.Ping(context.Background()); err != nil || sl2.d[0] != 2*time.Second {
		t.Fatalf("cap: %v %v", sl2.d, err)
	}
}

// TestNoRetryOn4xxAndGiveUp: a 400 is returned at once as *APIError; a 501 is not retried; a dead server gives a
// *NoResponseError after 1+MaxRetries tries.
func TestNoRetryOn4xxAndGiveUp(t *testing.T) {
	for _, st := range []int{400, 401, 404, 422, 501} {
		s := newScripted(t, jsonAnswer(st, errorBody("x")), jsonAnswer(200, pingOK))
		c, _ := newTestClient(t, s.srv.URL, Options{})
		_, err := c.Ping(context.Background())
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != st || len(s.got()) != 1 {
			t.Fatalf("%d: %v after %d tries", st, err, len(s.got()))
		}
	}
	s := newScripted(t, hangUp)
	c, _ := newTestClient(t, s.srv.URL, Options{MaxRetries: 2})
	_, err := c.Quote(context.Background(), testQuote(), WithOperationID("op-x"))
	var nr *NoResponseError
	if !errors.As(err, &nr) || nr.Tries != 3 || len(s.got()) != 3 || nr.OperationID != "op-x" || nr.IdempotencyKey != s.got()[0].key {
		t.Fatalf("%#v after %d tries", err, len(s.got()))
	}
	var ae *APIError
	if errors.As(err, &ae) {
		t.Fatal("a missing answer is an APIError")
	}
}

// TestContextCancelsRetries: a cancelled ctx stops the backoff.
func TestContextCancelsRetries(t *testing.T) {
	s := newScripted(t, hangUp)
	c, err := NewClient(Options{BaseURL: s.srv.URL, PartnerID: testPartner, Secret: testSecret, RetryBaseDelay: time.Hour, RetryMaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Ping(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

// TestFileStoreRestart: the key and bytes are persisted before sending, so a new client on the same file (a
// restarted process) resends the same key and bytes for the same operation id; another body is refused locally.
func TestFileStoreRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "idem.json")
	s := newScripted(t, hangUp, hangUp, jsonAnswer(200, quoteOK))
	c1, _ := newTestClient(t, s.srv.URL, Options{MaxRetries: -1, IdempotencyStore: NewFileIdempotencyStore(path)})
	var nr *NoResponseError
	if _, err := c1.Quote(context.Background(), testQuote(), WithOperationID("checkout-42")); !errors.As(err, &nr) {
		t.Fatalf("first process: %v", err)
	}
	raw, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(raw), `"checkout-42"`) || !strings.Contains(string(raw), s.got()[0].key) {
		t.Fatalf("record not persisted: %s %v", raw, err)
	}
	c2, _ := newTestClient(t, s.srv.URL, Options{IdempotencyStore: NewFileIdempotencyStore(path)})
	if _, err := c2.Quote(context.Background(), testQuote(), WithOperationID("checkout-42")); err != nil {
		t.Fatal(err)
	}
	tries := s.got()
	if len(tries) != 3 || tries[2].key != tries[0].key || string(tries[2].body) != string(tries[0].body) || tries[2].nonce == tries[0].nonce {
		t.Fatalf("restart did not resend the same key and bytes: %+v", tries)
	}
	other := testQuote()
	other.Sources[0].Amount = "6000000"
	var conflict *IdempotencyConflictError
	if _, err := c2.Quote(context.Background(), other, WithOperationID("checkout-42")); !errors.As(err, &conflict) || conflict.Field != "body" || len(s.got()) != 3 {
		t.Fatalf("other body under the same operation: %v", err)
	}
	if _, err := c2.Quote(context.Background(), testQuote(), WithOperationID("checkout-42"), WithIdempotencyKey("other")); !errors.As(err, &conflict) || conflict.Field != "key" {
		t.Fatalf("other key under the same operation: %v", err)
	}
	// A caller's own key is used as given.
	if _, err := c2.Quote(context.Background(), testQuote(), WithIdempotencyKey("my-key-1")); err != nil || s.got()[3].key != "my-key-1" {
		t.Fatalf("own key: %v", err)
	}
	// A corrupt store is an error, never read as empty.
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := c2.Quote(context.Background(), testQuote(), WithOperationID("checkout-42")); err == nil || len(s.got()) != 4 {
		t.Fatalf("corrupt store: %v", err)
	}
}

// TestGetHasNoKeyAndIDsAreChecked: a GET carries no Idempotency-Key (idempotency.json keyHeader), and an id that
// cannot be a path segment is refused before anything is sent.
func TestGetHasNoKeyAndIDsAreChecked(t *testing.T) {
	s := newScripted(t, jsonAnswer(200, `{"apiVersion":"1","attemptId":"at_1","status":"settled"}`))
	c, _ := newTestClient(t, s.srv.URL, Options{})
	st, err := c.Status(context.Background(), "at_1")
	if err != nil || st.Status != AttemptStatusSettled || s.got()[0].key != "" || s.got()[0].path != "/api/external/attempts/at_1/status" {
		t.Fatalf("%+v %v %+v", st, err, s.got())
	}
	for _, bad := range []string{"a/b", "..", "a%2F", "a b", ""} {
		if _, err := c.Status(context.Background(), bad); !errors.Is(err, ErrInvalidResourceID) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := c.TransactionAttempt(context.Background(), 8453, "0xab"); err != nil || s.got()[len(s.got())-1].path != "/api/external/transactions/8453/0xab/attempt" {
		t.Fatalf("transactionAttempt: %v", err)
	}
	if len(s.got()) != 2 {
		t.Fatalf("bad ids were sent: %d", len(s.got()))
	}
}
