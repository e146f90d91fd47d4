package intent

import (
	"encoding/json"
	"fmt"
)

// Kind is an error family. Every *APIError has one, and errors.Is(err, intent.KindRateLimited) (etc.) tells the
// family of an error without listing codes.
type Kind string

// The error families.
const (
	KindAuth        Kind = "auth"         // 401, 403, and the 409 external_auth_nonce_conflict: fix the signing or configuration
	KindValidation  Kind = "validation"   // 400, 405, 413, 415, 431: the request is wrong, do not retry it unchanged
	KindNotFound    Kind = "not_found"    // 404
	KindConflict    Kind = "conflict"     // 409 and 422: the resource's state or the Idempotency-Key forbids it
	KindRateLimited Kind = "rate_limited" // 429: retry after Retry-After
	KindServer      Kind = "server"       // 5xx and 408: retry the same bytes with the same key
)

func (k Kind) Error() string { return "intent: " + string(k) + " error" }

type codeInfo struct {
	Status int
	Kind   Kind
}

// APIError is an API error answer: the ErrorResponse envelope plus the HTTP status. Code is the stable code to
// branch on; Message is for people.
type APIError struct {
	Status     int
	Code       string
	Kind       Kind
	Message    string
	ErrorText  string // the envelope's "error", the HTTP reason phrase
	Path       string
	Details    []FieldError
	RequestID  string
	APIVersion string
	// Known is false for a code this SDK does not know (Kind then comes from Status).
	Known bool
	// Body is the raw answer body, kept for logging.
	Body []byte
	// RetryAfter is the answer's Retry-After header, if any (429, 503, idempotency_request_in_progress).
	RetryAfter string
}

func (e *APIError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("intent: HTTP %d", e.Status)
	}
	return fmt.Sprintf("intent: %d %s: %s (request %s)", e.Status, e.Code, e.Message, e.RequestID)
}

// Is makes errors.Is(err, intent.KindX) match the error's family.
func (e *APIError) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

// KnownCode reports whether code is in the SDK's registry, with its documented HTTP status and family.
func KnownCode(code string) (status int, kind Kind, ok bool) {
	info, ok := codes[code]
	return info.Status, info.Kind, ok
}

// KindOfStatus is the family of an HTTP error status when the code is unknown.
func KindOfStatus(status int) Kind {
	switch {
	case status == 401 || status == 403:
		return KindAuth
	case status == 404:
		return KindNotFound
	case status == 409 || status == 422:
		return KindConflict
	case status == 429:
		return KindRateLimited
	case status == 408 || status >= 500:
		return KindServer
	default:
		return KindValidation
	}
}

type envelope struct {
	APIVersion string       `json:"apiVersion"`
	Error      string       `json:"error"`
	Code       string       `json:"code"`
	Message    string       `json:"message"`
	Path       string       `json:"path"`
	Details    []FieldError `json:"details"`
	RequestID  string       `json:"requestId"`
}

// ParseError turns an error answer (status and raw body) into an *APIError. Fields it does not know are ignored;
// a body that is not the envelope still gives an *APIError with the status and the raw body.
func ParseError(status int, body []byte) *APIError {
	e := &APIError{Status: status, Body: body}
	var env envelope
	if json.Unmarshal(body, &env) == nil {
		e.Code, e.Message, e.ErrorText, e.Path = env.Code, env.Message, env.Error, env.Path
		e.Details, e.RequestID, e.APIVersion = env.Details, env.RequestID, env.APIVersion
	}
	if info, ok := codes[e.Code]; ok {
		e.Kind, e.Known = info.Kind, true
	} else {
		e.Kind = KindOfStatus(status)
	}
	return e
}
