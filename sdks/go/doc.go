// Package intent is the Go SDK of the External Intent API v1, standard library only.
//
// A Client calls every operation of the contract (docs/openapi.json; see Operations): it signs each try (auth
// version 2, or 1 for legacy partners) over the exact bytes it sends, persists every POST's Idempotency-Key and body
// in an IdempotencyStore before sending, and retries what is safe to retry with the same key and bytes. Answers are
// the typed structs of models_gen.go, generated from the contract; an error answer is an *APIError whose family
// errors.Is tells (KindAuth, KindValidation, ...); no answer at all is a *NoResponseError.
//
// AttemptEvents follows the live status stream, AllAttempts and WebhookEventPages page through the look-ups, and
// WebhookHandler (or VerifyWebhook) receives webhooks. The wallet's part for the sandbox is the separate module
// github.com/intent-service/partner-go/sandbox. The quickstart is docs/partners/go.md.
//
// The signing, path, webhook and error functions are checked against the shared vectors in sdks/vectors.
package intent

//go:generate go run ./internal/gen
