package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	intent "github.com/intent-service/partner-go"
)

// Event is one lifecycle event as this backend saw it.
type Event struct {
	EventID string `json:"eventId"`
	Event   string `json:"event"`
}

// Order is what this backend remembers of one checkout (a real one keeps it in its database).
type Order struct {
	AttemptID       string `json:"attemptId"`
	IntentSessionID string `json:"intentSessionId"`
	// Status is the latest status a verified webhook announced ("prepared" until the first one).
	Status string `json:"status"`
	// Webhooks are the verified webhooks, in the order they arrived, each eventId once.
	Webhooks []Event `json:"webhooks"`
	// Live are the same lifecycle events, as read from the live status stream (SSE).
	Live []Event `json:"live"`
}

// WalletResult is what the frontend reports once the user's wallet has acted.
type WalletResult struct {
	ChainResults []intent.ChainResultInput `json:"chainResults"`
	Signature    string                    `json:"signature"`
}

// Backend is a partner's backend in a few routes, on net/http and the SDK:
//
//	POST /checkout                     quote, then prepare: returns what the user's wallet must do
//	POST /orders/{attemptId}/submitted the frontend reports the wallet's transactions and signature; forwarded
//	GET  /orders/{attemptId}           what this backend knows (from webhooks and the live stream)
//	POST /webhooks                     the service's signed webhooks: verified, deduplicated, logged
//	POST /sandbox/orders/{id}/pay      SANDBOX ONLY (see SandboxWallet): the wallet's part, then submitted
type Backend struct {
	Client    *intent.Client
	PartnerID string
	Secret    string
	// Processed records verified eventIds before the 2xx (durable: a file here, your database in production).
	Processed intent.ProcessedEventStore
	// SandboxWallet, SANDBOX ONLY, plays the user's wallet with a development key. Never set it against a real
	// deployment: in production the wallet is the user's own, in their browser.
	SandboxWallet func(ctx context.Context, prepared *intent.PrepareResponse) (*WalletResult, error)
	Log           func(format string, args ...any)

	mu       sync.Mutex
	orders   map[string]*Order
	prepared map[string]*intent.PrepareResponse
}

// Handler returns the routes.
func (b *Backend) Handler() http.Handler {
	b.orders, b.prepared = map[string]*Order{}, map[string]*intent.PrepareResponse{}
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", intent.WebhookHandler(intent.WebhookHandlerOptions{
		PartnerID: b.PartnerID, Secrets: []string{b.Secret}, Processed: b.Processed,
		OnError: func(err error) { b.Log("webhook processing failed: %v", err) },
	}, b.onWebhook))
	mux.HandleFunc("POST /checkout", b.checkout)
	mux.HandleFunc("POST /orders/{attemptId}/submitted", b.submittedRoute)
	mux.HandleFunc("GET /orders/{attemptId}", b.order)
	mux.HandleFunc("POST /sandbox/orders/{attemptId}/pay", b.pay)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { reply(w, 404, map[string]string{"error": "not found"}) })
	return mux
}

// onWebhook runs once per eventId, after the signature, timestamp and partner id were checked on the raw bytes.
func (b *Backend) onWebhook(_ context.Context, ev *intent.WebhookEvent) error {
	b.Log("webhook %s attempt %s eventId %s (verified)", ev.Event, orDash(ev.AttemptID), ev.EventID)
	b.mu.Lock()
	defer b.mu.Unlock()
	if o := b.orders[ev.AttemptID]; o != nil {
		o.Webhooks = append(o.Webhooks, Event{ev.EventID, string(ev.Event)})
		o.Status = string(ev.Event)
	}
	return nil
}

// checkout quotes, then prepares at once: the quote's intent session lasts about 60 s.
func (b *Backend) checkout(w http.ResponseWriter, r *http.Request) {
	var req intent.QuoteRequest
	if !readJSON(w, r, &req) {
		return
	}
	quote, err := b.Client.Quote(r.Context(), req)
	if err != nil {
		replyError(w, b, r, err)
		return
	}
	// partial_only covers part of the target: a real checkout would show that to the user first.
	if quote.QuoteStatus == intent.QuoteStatusUnavailable || quote.QuoteStatus == intent.QuoteStatusExpired {
		reply(w, 409, quote)
		return
	}
	// An empty body (walletContext omitted) yields plain sendTransaction actions, which any wallet can execute.
	attempt, err := b.Client.Prepare(r.Context(), quote.IntentSessionID, intent.PrepareRequest{})
	if err != nil {
		replyError(w, b, r, err)
		return
	}
	b.mu.Lock()
	b.prepared[attempt.AttemptID] = attempt
	b.orders[attempt.AttemptID] = &Order{AttemptID: attempt.AttemptID, IntentSessionID: quote.IntentSessionID,
		Status: "prepared", Webhooks: []Event{}, Live: []Event{}}
	b.mu.Unlock()
	b.Log("checkout: attempt %s prepared, the wallet must act before %s", attempt.AttemptID, attempt.ExpiresAt)
	// Hand these to the frontend: the wallet executes chainActions and signs walletAuthorization (EIP-712).
	reply(w, 200, attempt)
}

func (b *Backend) submittedRoute(w http.ResponseWriter, r *http.Request) {
	var result WalletResult
	if !readJSON(w, r, &result) {
		return
	}
	b.submitted(w, r, r.PathValue("attemptId"), &result)
}

// submitted forwards the frontend's report: every transaction hash per chain, and the EIP-712 signature.
func (b *Backend) submitted(w http.ResponseWriter, r *http.Request, attemptID string, result *WalletResult) {
	snapshot, err := b.Client.Submitted(r.Context(), attemptID, intent.SubmittedRequest{
		ChainResults:        result.ChainResults,
		WalletAuthorization: &intent.WalletAuthorizationInput{Signature: result.Signature},
	}, intent.WithOperationID("submitted:"+attemptID)) // one operation per attempt: a retry resends the same key and bytes
	if err != nil {
		replyError(w, b, r, err)
		return
	}
	go b.follow(attemptID)
	reply(w, 200, snapshot)
}

// follow reads the live status stream until the attempt ends (optional, beside the webhooks).
func (b *Backend) follow(attemptID string) {
	for ev, err := range b.Client.AttemptEvents(context.Background(), attemptID) {
		if err != nil {
			b.Log("live status of %s stopped: %v", attemptID, err)
			return
		}
		b.mu.Lock()
		if o := b.orders[attemptID]; o != nil {
			o.Live = append(o.Live, Event{ev.ID, string(ev.Event)})
		}
		b.mu.Unlock()
	}
}

func (b *Backend) order(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o := b.orders[r.PathValue("attemptId")]
	if o == nil {
		reply(w, 404, map[string]string{"error": "no such order"})
		return
	}
	reply(w, 200, o)
}

func (b *Backend) pay(w http.ResponseWriter, r *http.Request) {
	if b.SandboxWallet == nil {
		reply(w, 404, map[string]string{"error": "not found"})
		return
	}
	b.mu.Lock()
	attempt := b.prepared[r.PathValue("attemptId")]
	b.mu.Unlock()
	if attempt == nil {
		reply(w, 404, map[string]string{"error": "no such order"})
		return
	}
	result, err := b.SandboxWallet(r.Context(), attempt)
	if err != nil {
		replyError(w, b, r, err)
		return
	}
	b.submitted(w, r, attempt.AttemptID, result)
}

// replyError answers an API error with the service's status and body, anything else with a 500.
func replyError(w http.ResponseWriter, b *Backend, r *http.Request, err error) {
	var apiErr *intent.APIError
	if errors.As(err, &apiErr) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(apiErr.Status)
		w.Write(apiErr.Body)
		return
	}
	b.Log("%s %s failed: %v", r.Method, r.URL.Path, err)
	reply(w, 500, map[string]string{"error": "internal error"})
}

func readJSON(w http.ResponseWriter, r *http.Request, into any) bool {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil && len(raw) > 0 {
		err = json.Unmarshal(raw, into)
	}
	if err != nil {
		reply(w, 400, map[string]string{"error": fmt.Sprintf("invalid JSON body: %v", err)})
		return false
	}
	return true
}

func reply(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
