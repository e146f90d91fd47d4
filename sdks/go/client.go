package intent

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// APIPrefix starts every API path, after the deployment's own base path.
const APIPrefix = "/api/external"

// Options configure a Client. BaseURL, PartnerID and Secret are required.
type Options struct {
	// BaseURL is the service's origin, optionally with a deployment prefix: "https://api.example.com" or
	// "https://example.com/partner-gateway" (requests then go to /partner-gateway/api/external/...).
	BaseURL   string
	PartnerID string
	Secret    string
	// AuthVersion is 2 (the default when 0) or 1 (legacy partners).
	AuthVersion int
	// HTTPClient sends every request; http.DefaultClient when nil. Its Timeout, if any, also bounds the live
	// status stream: prefer RequestTimeout.
	HTTPClient *http.Client
	// MaxRetries is the number of retries after the first try: 0 means the default (3), a negative value none.
	MaxRetries int
	// RetryBaseDelay (default 200 ms) and RetryMaxDelay (default 10 s) shape the jittered exponential backoff;
	// RetryMaxDelay also caps a server's Retry-After.
	RetryBaseDelay time.Duration
	RetryMaxDelay  time.Duration
	// RequestTimeout bounds one try (default 30 s). The live status stream is not bounded by it.
	RequestTimeout time.Duration
	// IdempotencyStore persists each POST's key and body before sending; a MemoryIdempotencyStore when nil. Use a
	// FileIdempotencyStore (or your database) so a retry after a restart resends the same key and bytes.
	IdempotencyStore IdempotencyStore
	// Now and Sleep replace the clock and the wait between tries (tests). Sleep must return ctx.Err() when ctx
	// ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client calls the External Intent API v1. It signs every try afresh (timestamp, nonce), persists every POST's
// Idempotency-Key and body before sending, and retries what is safe to retry with the same key and bytes. A 2xx
// answer is decoded into the operation's typed response; any other answer is an *APIError; no answer at all
// (after the retries) is a *NoResponseError. A Client is safe for concurrent use.
type Client struct {
	origin, prefix string
	creds          Credentials
	http           *http.Client
	store          IdempotencyStore
	maxRetries     int
	baseDelay      time.Duration
	maxDelay       time.Duration
	timeout        time.Duration
	now            func() time.Time
	sleep          func(context.Context, time.Duration) error
}

// NewClient checks the options and returns a Client.
func NewClient(o Options) (*Client, error) {
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("intent: BaseURL must be an http(s) URL: %q", o.BaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("intent: BaseURL takes no query or fragment: %q", o.BaseURL)
	}
	if o.PartnerID == "" || o.Secret == "" {
		return nil, errors.New("intent: PartnerID and Secret are required")
	}
	if o.AuthVersion != 0 && o.AuthVersion != 1 && o.AuthVersion != 2 {
		return nil, fmt.Errorf("intent: unsupported auth version %d", o.AuthVersion)
	}
	c := &Client{
		origin: u.Scheme + "://" + u.Host,
		prefix: strings.TrimRight(u.EscapedPath(), "/"),
		creds:  Credentials{PartnerID: o.PartnerID, Secret: o.Secret, AuthVersion: o.AuthVersion},
		http:   o.HTTPClient, store: o.IdempotencyStore,
		maxRetries: o.MaxRetries, baseDelay: o.RetryBaseDelay, maxDelay: o.RetryMaxDelay, timeout: o.RequestTimeout,
		now: o.Now, sleep: o.Sleep,
	}
	if c.prefix != "" {
		if _, err := CanonicalPath(c.prefix + APIPrefix); err != nil {
			return nil, fmt.Errorf("intent: BaseURL path: %w", err)
		}
	}
	if c.http == nil {
		c.http = http.DefaultClient
	}
	if c.store == nil {
		c.store = NewMemoryIdempotencyStore()
	}
	switch {
	case c.maxRetries == 0:
		c.maxRetries = 3
	case c.maxRetries < 0:
		c.maxRetries = 0
	}
	if c.baseDelay <= 0 {
		c.baseDelay = 200 * time.Millisecond
	}
	if c.maxDelay <= 0 {
		c.maxDelay = 10 * time.Second
	}
	if c.timeout <= 0 {
		c.timeout = 30 * time.Second
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	return c, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// NoResponseError is returned when no answer came back after every try (connection refused, reset, timeout, or
// ctx ending first). The request may or may not have run: retry the same operation (same operation id) to resend
// the same Idempotency-Key and bytes. errors.Is(err, context.DeadlineExceeded) etc. see the cause.
type NoResponseError struct {
	Method, Path   string
	Tries          int
	OperationID    string // "" for a GET
	IdempotencyKey string // "" for a GET
	Err            error
}

func (e *NoResponseError) Error() string {
	return fmt.Sprintf("intent: %s %s got no response after %d tries: %v", e.Method, e.Path, e.Tries, e.Err)
}

func (e *NoResponseError) Unwrap() error { return e.Err }

// ErrInvalidResourceID is wrapped by the error returned, before anything is sent, for an id that cannot be a path
// segment (a character the service refuses unescaped, "." or "..").
var ErrInvalidResourceID = errors.New("intent: invalid resource id")

func pathSegment(id string) (string, error) {
	if id == "" || id == "." || id == ".." {
		return "", fmt.Errorf("%w: %q", ErrInvalidResourceID, id)
	}
	for i := 0; i < len(id); i++ {
		if !isPathChar(id[i]) {
			return "", fmt.Errorf("%w: %q", ErrInvalidResourceID, id)
		}
	}
	return id, nil
}

// CallOption adjusts one POST operation.
type CallOption func(*callOptions)

type callOptions struct {
	operationID    string
	idempotencyKey string
}

// WithOperationID names the operation in the IdempotencyStore, so a later call with the same id (in this process
// or another, after a crash) resends the stored key and bytes instead of making a new request. Give one per
// logical operation, e.g. "submitted:"+attemptID. Without it every call is a new operation.
func WithOperationID(id string) CallOption { return func(o *callOptions) { o.operationID = id } }

// WithIdempotencyKey uses this Idempotency-Key (1 to 255 characters) instead of a random UUID.
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = key }
}

// route builds the signed path of an operation, substituting its path parameters in order.
func (c *Client) route(operationID string, params ...string) (method, path string, err error) {
	r, ok := operationRoutes[operationID]
	if !ok {
		return "", "", fmt.Errorf("intent: unknown operation %q", operationID)
	}
	p := r.Path
	for _, v := range params {
		seg, err := pathSegment(v)
		if err != nil {
			return "", "", err
		}
		i, j := strings.IndexByte(p, '{'), strings.IndexByte(p, '}')
		if i < 0 || j < i {
			return "", "", fmt.Errorf("intent: too many parameters for %s", operationID)
		}
		p = p[:i] + seg + p[j+1:]
	}
	if strings.Contains(p, "{") {
		return "", "", fmt.Errorf("intent: missing parameters for %s", operationID)
	}
	return r.Method, c.prefix + APIPrefix + p, nil
}

// get sends a signed GET and decodes a 2xx answer into out.
func (c *Client) get(ctx context.Context, out any, operationID string, params ...string) error {
	_, path, err := c.route(operationID, params...)
	if err != nil {
		return err
	}
	return c.send(ctx, Request{Method: "GET", Path: path}, "", out)
}

// post persists the operation's key and bytes, then sends them until a final answer, decoding a 2xx into out.
func (c *Client) post(ctx context.Context, body any, out any, opts []CallOption, operationID string, params ...string) error {
	_, path, err := c.route(operationID, params...)
	if err != nil {
		return err
	}
	var o callOptions
	for _, f := range opts {
		f(&o)
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("intent: encoding %s body: %w", operationID, err)
	}
	given := o.operationID != ""
	if !given {
		o.operationID = "op-" + newUUID()
	}
	rec, err := c.recordFor(ctx, o.operationID, string(raw), o.idempotencyKey)
	if err != nil {
		return err
	}
	err = c.send(ctx, Request{Method: "POST", Path: path, Body: []byte(rec.Body), IdempotencyKey: rec.Key}, o.operationID, out)
	var nr *NoResponseError
	if !given && !errors.As(err, &nr) {
		// An operation nobody can name again is done once it has an answer; keeping it would only grow the store.
		_ = c.store.Delete(context.WithoutCancel(ctx), o.operationID)
	}
	return err
}

// recordFor returns the stored record of an operation, or a new one persisted before anything is sent.
func (c *Client) recordFor(ctx context.Context, operationID, body, key string) (IdempotencyRecord, error) {
	stored, ok, err := c.store.Get(ctx, operationID)
	if err != nil {
		return IdempotencyRecord{}, fmt.Errorf("intent: idempotency store: %w", err)
	}
	if ok {
		if stored.Body != body {
			return IdempotencyRecord{}, &IdempotencyConflictError{OperationID: operationID, Field: "body"}
		}
		if key != "" && stored.Key != key {
			return IdempotencyRecord{}, &IdempotencyConflictError{OperationID: operationID, Field: "key"}
		}
		return stored, nil
	}
	rec := IdempotencyRecord{Key: key, Body: body}
	if rec.Key == "" {
		rec.Key = newUUID()
	}
	if err := c.store.Put(ctx, operationID, rec); err != nil {
		return IdempotencyRecord{}, fmt.Errorf("intent: idempotency store: %w", err)
	}
	return rec, nil
}

func newNonce() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// signedRequest builds one try: a fresh timestamp and nonce, signed over the same bytes and key.
func (c *Client) signedRequest(ctx context.Context, req Request) (*http.Request, error) {
	signed, err := SignRequest(c.creds, req, FormatTimestamp(c.now().UnixMilli()), newNonce())
	if err != nil {
		return nil, err
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, c.origin+req.Path, body)
	if err != nil {
		return nil, err
	}
	for k, v := range signed.Headers {
		hr.Header.Set(k, v)
	}
	hr.Header.Set("Accept", "application/json")
	return hr, nil
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (c *Client) sendOnce(ctx context.Context, req Request) (*answer, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	hr, err := c.signedRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	res, err := c.http.Do(hr)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &answer{res.StatusCode, res.Header, body}, nil
}

// send tries req until a final answer; a 2xx is decoded into out, any other status is an *APIError.
func (c *Client) send(ctx context.Context, req Request, operationID string, out any) error {
	if _, err := CanonicalPath(req.Path); err != nil {
		return err // a path the service refuses: never sent
	}
	for tries := 1; ; tries++ {
		ans, err := c.sendOnce(ctx, req)
		if err != nil && ctx.Err() != nil {
			return c.noResponse(req, operationID, tries, ctx.Err())
		}
		delay, retry := c.retryDelay(ans, tries-1)
		if !retry {
			if err != nil {
				return c.noResponse(req, operationID, tries, err)
			}
			return decodeAnswer(ans, out)
		}
		if serr := c.sleep(ctx, delay); serr != nil {
			if ans != nil {
				return decodeAnswer(ans, out) // the last answer we had, rather than a bare cancellation
			}
			return c.noResponse(req, operationID, tries, serr)
		}
	}
}

func (c *Client) noResponse(req Request, operationID string, tries int, err error) error {
	return &NoResponseError{Method: req.Method, Path: req.Path, Tries: tries, OperationID: operationID, IdempotencyKey: req.IdempotencyKey, Err: err}
}

func decodeAnswer(ans *answer, out any) error {
	if ans.status < 200 || ans.status > 299 {
		e := ParseError(ans.status, ans.body)
		e.RetryAfter = ans.header.Get("Retry-After")
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(ans.body, out); err != nil {
		return fmt.Errorf("intent: decoding a %d answer: %w", ans.status, err)
	}
	return nil
}

// retryable: 5xx but 501, 429, and 409 idempotency_request_in_progress. Every other 4xx is the caller's to fix.
func retryable(a *answer) bool {
	switch {
	case a.status >= 500:
		return a.status != 501
	case a.status == 429:
		return true
	case a.status == 409:
		return ParseError(a.status, a.body).Code == CodeIdempotencyRequestInProgress
	}
	return false
}

// retryDelay says whether to retry after this outcome (ans nil: no answer) and how long to wait: a jittered
// exponential step (half to all of base·2^i, capped), or the server's Retry-After when longer, capped too.
func (c *Client) retryDelay(ans *answer, retryIndex int) (time.Duration, bool) {
	if retryIndex >= c.maxRetries || (ans != nil && !retryable(ans)) {
		return 0, false
	}
	step := float64(c.baseDelay) * math.Pow(2, float64(retryIndex))
	if step > float64(c.maxDelay) {
		step = float64(c.maxDelay)
	}
	d := time.Duration(step/2 + mrand.Float64()*step/2)
	if ans != nil {
		if ra, ok := ParseRetryAfter(ans.header.Get("Retry-After"), c.now()); ok && ra > d {
			d = min(ra, c.maxDelay)
		}
	}
	return d, true
}

// ParseRetryAfter reads a Retry-After header (RFC 9110: delay-seconds or an HTTP-date) as a duration from now;
// ok is false when it is absent or unreadable. A past date means now.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if isDigits(v, 9) {
		n, _ := strconv.Atoi(v)
		return time.Duration(n) * time.Second, true
	}
	t, err := time.Parse(http.TimeFormat, v)
	if err != nil {
		return 0, false
	}
	return max(0, t.Sub(now)), true
}
