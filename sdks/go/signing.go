package intent

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Header names, lower-case as the signing vectors give them. HTTP compares them case-insensitively.
const (
	HeaderPartnerID      = "x-partner-id"
	HeaderTimestamp      = "x-timestamp"
	HeaderAuthVersion    = "x-service-auth-version"
	HeaderNonce          = "x-nonce"
	HeaderSignature      = "x-signature"
	HeaderIdempotencyKey = "idempotency-key"
	HeaderContentType    = "content-type"
	HeaderEventID        = "x-service-event-id"
)

// Credentials identify a partner and the auth version its server-side configuration expects.
type Credentials struct {
	PartnerID string
	Secret    string
	// AuthVersion is 2 (the default when 0) or 1 (legacy).
	AuthVersion int
}

// Request is what gets signed: the exact bytes that will be sent, never a re-serialisation.
type Request struct {
	Method string // GET or POST; upper-cased when signed
	// Path is the request target as it will be sent (no query string). It is canonicalised by CanonicalPath
	// and the canonical form is signed.
	Path string
	// Body holds the exact bytes to send; nil or empty for a GET.
	Body []byte
	// IdempotencyKey is the Idempotency-Key header value; "" for a GET (no header is sent then).
	IdempotencyKey string
}

// Signed is the result of signing one try of a request.
type Signed struct {
	CanonicalPath string
	BodySHA256    string // lower-case hex SHA-256 of the raw body bytes
	// SignedMessage is the byte string the HMAC covers: the v2 signing string, or v1's "<timestamp>.<body>".
	SignedMessage []byte
	Signature     string // lower-case hex HMAC-SHA256
	// Headers are every authentication header of the try, with lower-case names.
	Headers map[string]string
}

// SHA256Hex is the lower-case hex SHA-256 of b.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hmacHex(secret string, msg []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(msg)
	return hex.EncodeToString(m.Sum(nil))
}

// SigningStringV2 is the ten LF-joined lines auth version 2 signs, with no trailing newline. canonicalPath must
// already be canonical (see CanonicalPath).
func SigningStringV2(partnerID, timestamp, nonce, method, canonicalPath, idempotencyKey, bodySHA256 string) []byte {
	return []byte(strings.Join([]string{
		"SERVICE-EXTERNAL-REQUEST",
		"auth-version:2",
		"api-version:1",
		"partner-id:" + partnerID,
		"timestamp:" + timestamp,
		"nonce:" + nonce,
		"method:" + strings.ToUpper(method),
		"path:" + canonicalPath,
		"idempotency-key:" + idempotencyKey,
		"body-sha256:" + bodySHA256,
	}, "\n"))
}

// TimestampDotBody is "<timestamp>.<raw body>": the signed message of a v1 request and of every webhook.
func TimestampDotBody(timestamp string, body []byte) []byte {
	msg := make([]byte, 0, len(timestamp)+1+len(body))
	msg = append(msg, timestamp...)
	msg = append(msg, '.')
	return append(msg, body...)
}

// FormatTimestamp renders epoch milliseconds as X-Timestamp sends them.
func FormatTimestamp(epochMs int64) string { return strconv.FormatInt(epochMs, 10) }

// SignRequest signs one try of req. timestamp is X-Timestamp exactly as sent (decimal epoch milliseconds, see
// FormatTimestamp) and nonce is X-Nonce (ignored for v1). Both must be fresh for every try, retries included.
// It fails with a *PathError when req.Path is a target the service refuses.
func SignRequest(c Credentials, req Request, timestamp, nonce string) (*Signed, error) {
	canonical, err := CanonicalPath(req.Path)
	if err != nil {
		return nil, err
	}
	body := req.Body
	if body == nil {
		body = []byte{}
	}
	method := strings.ToUpper(req.Method)
	s := &Signed{CanonicalPath: canonical, BodySHA256: SHA256Hex(body)}
	h := map[string]string{HeaderPartnerID: c.PartnerID, HeaderTimestamp: timestamp}
	switch c.AuthVersion {
	case 0, 2:
		s.SignedMessage = SigningStringV2(c.PartnerID, timestamp, nonce, method, canonical, req.IdempotencyKey, s.BodySHA256)
		h[HeaderAuthVersion] = "2"
		h[HeaderNonce] = nonce
	case 1:
		s.SignedMessage = TimestampDotBody(timestamp, body)
	default:
		return nil, fmt.Errorf("intent: unsupported auth version %d", c.AuthVersion)
	}
	s.Signature = hmacHex(c.Secret, s.SignedMessage)
	h[HeaderSignature] = s.Signature
	if req.IdempotencyKey != "" {
		h[HeaderIdempotencyKey] = req.IdempotencyKey
	}
	if method == "POST" {
		h[HeaderContentType] = "application/json"
	}
	s.Headers = h
	return s, nil
}
