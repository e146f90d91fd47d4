package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	intent "github.com/intent-service/partner-go"
)

const partner, secret = "p1", "s3cret"

// fakeService answers the operations the backend calls, from fixed bodies; quote fails when asked to.
func fakeService(t *testing.T, quoteStatus int) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var calls []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path+" "+string(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/intents/quote") && quoteStatus != 200:
			w.WriteHeader(quoteStatus)
			io.WriteString(w, `{"apiVersion":"1","error":"Bad Request","code":"invalid_sources","message":"m","path":"/api/external/intents/quote","requestId":"r"}`)
		case strings.HasSuffix(r.URL.Path, "/intents/quote"):
			io.WriteString(w, `{"apiVersion":"1","quoteStatus":"ready","intentSessionId":"is_1","expiresAt":"x","coverageMode":"full","allocationPlan":{"legs":[]},"selectedPlan":null,"failedSources":[],"routeEvaluations":[]}`)
		case strings.HasSuffix(r.URL.Path, "/intents/is_1/prepare"):
			io.WriteString(w, `{"apiVersion":"1","attemptId":"at_1","intentSessionId":"is_1","status":"prepared","expiresAt":"soon","chainActions":[],"walletAuthorization":null}`)
		case strings.HasSuffix(r.URL.Path, "/attempts/at_1/submitted"):
			io.WriteString(w, `{"apiVersion":"1","attemptId":"at_1","status":"wallet_submitted"}`)
		case strings.HasSuffix(r.URL.Path, "/attempts/at_1/events"):
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range []string{"wallet_submitted", "provider_pending", "settled"} {
				fmt.Fprintf(w, "id: ev-%s\nevent: %s\ndata: {\"eventId\":\"ev-%s\",\"event\":%q,\"attemptId\":\"at_1\"}\n\n", e, e, e, e)
			}
		default:
			w.WriteHeader(404)
			io.WriteString(w, `{"code":"route_not_found"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func newBackend(t *testing.T, serviceURL string) *httptest.Server {
	client, err := intent.NewClient(intent.Options{BaseURL: serviceURL, PartnerID: partner, Secret: secret,
		IdempotencyStore: intent.NewFileIdempotencyStore(filepath.Join(t.TempDir(), "idempotency.json"))})
	if err != nil {
		t.Fatal(err)
	}
	b := &Backend{Client: client, PartnerID: partner, Secret: secret,
		Processed: &intent.FileProcessedEventStore{Path: filepath.Join(t.TempDir(), "processed.txt")},
		Log:       func(f string, a ...any) { t.Logf(f, a...) }}
	srv := httptest.NewServer(b.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, method, url, body string, headers ...string) (int, map[string]any) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func webhook(eventID, event, key string) (string, []string) {
	body := fmt.Sprintf(`{"eventId":%q,"event":%q,"attemptId":"at_1","partnerId":"p1","status":%q}`, eventID, event, event)
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(ts + "." + body))
	return body, []string{"X-Partner-Id", partner, "X-Timestamp", ts, "X-Signature", hex.EncodeToString(m.Sum(nil)), "X-Service-Event-Id", eventID}
}

// TestRoutes drives the routes as the frontend and the service would: checkout, the frontend's submitted report
// (forwarded with its signature), signed webhooks (once per eventId, forged ones refused with 401) and the live
// stream, then reads the order.
func TestRoutes(t *testing.T) {
	svc, calls := fakeService(t, 200)
	be := newBackend(t, svc.URL)
	st, att := call(t, "POST", be.URL+"/checkout", `{"walletAddress":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","sources":[]}`)
	if st != 200 || att["attemptId"] != "at_1" {
		t.Fatalf("checkout %d %v", st, att)
	}
	st, snap := call(t, "POST", be.URL+"/orders/at_1/submitted", `{"chainResults":[{"chainId":1,"txHashes":["0xaa"]}],"signature":"0xsig"}`)
	if st != 200 || snap["status"] != "wallet_submitted" {
		t.Fatalf("submitted %d %v", st, snap)
	}
	forwarded := false
	for _, c := range *calls {
		if strings.Contains(c, "/submitted ") && strings.Contains(c, `"walletAuthorization":{"signature":"0xsig"}`) && strings.Contains(c, `"txHashes":["0xaa"]`) {
			forwarded = true
		}
	}
	if !forwarded {
		t.Fatalf("submitted body not forwarded: %v", *calls)
	}
	for _, e := range []string{"wallet_submitted", "settled", "settled"} { // the second settled is a redelivery
		body, h := webhook("ev-"+e, e, secret)
		if st, out := call(t, "POST", be.URL+"/webhooks", body, h...); st != 200 {
			t.Fatalf("webhook %s: %d %v", e, st, out)
		}
	}
	body, h := webhook("ev-forged", "failed", "not-the-secret")
	if st, out := call(t, "POST", be.URL+"/webhooks", body, h...); st != 401 || out["error"] != "signature_invalid" {
		t.Fatalf("forged: %d %v", st, out)
	}
	var order map[string]any
	for i := 0; i < 50; i++ {
		_, order = call(t, "GET", be.URL+"/orders/at_1", "")
		if live, _ := order["live"].([]any); len(live) == 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, _ := json.Marshal(order)
	want := `{"attemptId":"at_1","intentSessionId":"is_1","live":[{"event":"wallet_submitted","eventId":"ev-wallet_submitted"},{"event":"provider_pending","eventId":"ev-provider_pending"},{"event":"settled","eventId":"ev-settled"}],"status":"settled","webhooks":[{"event":"wallet_submitted","eventId":"ev-wallet_submitted"},{"event":"settled","eventId":"ev-settled"}]}`
	if string(got) != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
	if st, out := call(t, "GET", be.URL+"/orders/at_x", ""); st != 404 || out["error"] != "no such order" {
		t.Fatalf("unknown order: %d %v", st, out)
	}
	if st, _ := call(t, "POST", be.URL+"/sandbox/orders/at_1/pay", ""); st != 404 {
		t.Fatalf("sandbox route without SANDBOX_MANIFEST: %d", st)
	}
}

// TestCheckoutPassesServiceErrors: the service's error status and body reach the frontend unchanged.
func TestCheckoutPassesServiceErrors(t *testing.T) {
	svc, _ := fakeService(t, 400)
	be := newBackend(t, svc.URL)
	st, out := call(t, "POST", be.URL+"/checkout", `{"walletAddress":"0x1","sources":[]}`)
	if st != 400 || out["code"] != "invalid_sources" {
		t.Fatalf("%d %v", st, out)
	}
	if st, _ := call(t, "POST", be.URL+"/checkout", `{not json`); st != 400 {
		t.Fatalf("bad JSON: %d", st)
	}
}

// TestUnknownRoutes answer 404 {"error":"not found"} as the TypeScript backend does, whatever the method.
func TestUnknownRoutes(t *testing.T) {
	svc, _ := fakeService(t, 200)
	be := newBackend(t, svc.URL)
	for _, r := range [][2]string{{"GET", "/webhooks"}, {"GET", "/checkout"}, {"POST", "/orders/at_1"}, {"GET", "/nothing"}} {
		if st, out := call(t, r[0], be.URL+r[1], ""); st != 404 || out["error"] != "not found" {
			t.Errorf("%s %s: %d %v", r[0], r[1], st, out)
		}
	}
}
