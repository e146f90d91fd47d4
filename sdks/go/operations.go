package intent

import (
	"context"
	"strconv"
)

// Operations maps every operationId of docs/openapi.json to the Client method that calls it.
var Operations = map[string]string{
	"ping":               "Ping",
	"quote":              "Quote",
	"prepare":            "Prepare",
	"submitted":          "Submitted",
	"status":             "Status",
	"searchAttempts":     "SearchAttempts",
	"transactionAttempt": "TransactionAttempt",
	"webhookEvents":      "WebhookEvents",
	"webhookEventsAfter": "WebhookEventsAfter",
	"webhookRedeliver":   "WebhookRedeliver",
	"webhookRecover":     "WebhookRecover",
	"attemptEvents":      "AttemptEvents",
}

// Ping (GET /ping) checks the credentials: a 200 names the authenticated partner.
func (c *Client) Ping(ctx context.Context) (*PingResponse, error) {
	var out PingResponse
	return &out, c.get(ctx, &out, "ping")
}

// Quote (POST /intents/quote) plans the consolidation of the given balances into the target(s). The answer's
// intentSessionId lives about 60 s: prepare it soon.
func (c *Client) Quote(ctx context.Context, req QuoteRequest, opts ...CallOption) (*QuoteResponse, error) {
	var out QuoteResponse
	return &out, c.post(ctx, req, &out, opts, "quote")
}

// Prepare (POST /intents/{intentSessionId}/prepare) creates the attempt: the chain actions the wallet executes and
// the EIP-712 walletAuthorization it signs. An empty PrepareRequest yields plain sendTransaction actions.
func (c *Client) Prepare(ctx context.Context, intentSessionID string, req PrepareRequest, opts ...CallOption) (*PrepareResponse, error) {
	var out PrepareResponse
	return &out, c.post(ctx, req, &out, opts, "prepare", intentSessionID)
}

// Submitted (POST /attempts/{attemptId}/submitted) reports the wallet's transactions and signature.
func (c *Client) Submitted(ctx context.Context, attemptID string, req SubmittedRequest, opts ...CallOption) (*AttemptSnapshot, error) {
	var out AttemptSnapshot
	return &out, c.post(ctx, req, &out, opts, "submitted", attemptID)
}

// Status (GET /attempts/{attemptId}/status) is the attempt's current snapshot.
func (c *Client) Status(ctx context.Context, attemptID string) (*AttemptSnapshot, error) {
	var out AttemptSnapshot
	return &out, c.get(ctx, &out, "status", attemptID)
}

// SearchAttempts (POST /attempts/search) is one page of the partner's attempts, newest first. See AllAttempts for
// every page.
func (c *Client) SearchAttempts(ctx context.Context, req AttemptSearchRequest, opts ...CallOption) (*AttemptSearchResponse, error) {
	var out AttemptSearchResponse
	return &out, c.post(ctx, req, &out, opts, "searchAttempts")
}

// TransactionAttempt (GET /transactions/{chainId}/{txHash}/attempt) is the attempt that knows this transaction.
func (c *Client) TransactionAttempt(ctx context.Context, chainID int64, txHash string) (*TransactionAttemptResponse, error) {
	var out TransactionAttemptResponse
	return &out, c.get(ctx, &out, "transactionAttempt", strconv.FormatInt(chainID, 10), txHash)
}

// WebhookEvents (GET /webhooks/events) is the first page of the partner's webhook events, oldest first. See
// AllWebhookEvents for every page.
func (c *Client) WebhookEvents(ctx context.Context) (*WebhookEventsResponse, error) {
	var out WebhookEventsResponse
	return &out, c.get(ctx, &out, "webhookEvents")
}

// WebhookEventsAfter (GET /webhooks/events/after/{cursor}) is the page after a previous page's nextCursor, passed
// back byte for byte.
func (c *Client) WebhookEventsAfter(ctx context.Context, cursor string) (*WebhookEventsResponse, error) {
	var out WebhookEventsResponse
	return &out, c.get(ctx, &out, "webhookEventsAfter", cursor)
}

// WebhookRedeliver (POST /webhooks/redeliver/{eventId}) sends one event's webhook again.
func (c *Client) WebhookRedeliver(ctx context.Context, eventID string, opts ...CallOption) (*WebhookRedeliverResponse, error) {
	var out WebhookRedeliverResponse
	return &out, c.post(ctx, WebhookRedeliverRequest{}, &out, opts, "webhookRedeliver", eventID)
}

// WebhookRecover (POST /webhooks/recover) sends again every ended event of [From, To), a page of attempts per
// call: while the answer has a Continuation, call again with the same From and To and that Continuation.
func (c *Client) WebhookRecover(ctx context.Context, req WebhookRecoverRequest, opts ...CallOption) (*WebhookRecoverResponse, error) {
	var out WebhookRecoverResponse
	return &out, c.post(ctx, req, &out, opts, "webhookRecover")
}
