package intent

import (
	"fmt"
	"strings"
)

// PathRefusal names why a request target is refused. The service answers every one with 401
// external_auth_request_invalid (CodeExternalAuthRequestInvalid).
type PathRefusal string

// The refusal reasons of sdks/vectors/paths.json.
const (
	PathNotAbsolute      PathRefusal = "not_absolute"
	PathQueryString      PathRefusal = "query_string"
	PathFragment         PathRefusal = "fragment"
	PathBackslash        PathRefusal = "backslash"
	PathPercentEncoded   PathRefusal = "percent_encoded"
	PathInvalidCharacter PathRefusal = "invalid_character"
	PathEmptySegment     PathRefusal = "empty_segment"
	PathDotSegment       PathRefusal = "dot_segment"
)

// PathError is returned for a request target the SDK will not sign because the service would refuse it.
type PathError struct {
	Path   string
	Reason PathRefusal
}

func (e *PathError) Error() string {
	return fmt.Sprintf("intent: request path %q refused: %s", e.Path, e.Reason)
}

// Code is the API error code the service answers to this target.
func (e *PathError) Code() string { return CodeExternalAuthRequestInvalid }

// Status is the HTTP status the service answers to this target.
func (e *PathError) Status() int { return 401 }

// pchar without '%': unreserved / sub-delims / ":" / "@" (RFC 3986), which the service accepts unescaped.
func isPathChar(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@", b) >= 0
}

// CanonicalPath returns the form of path that is signed: one trailing slash is dropped, nothing else changes
// (case is kept). It refuses, with a *PathError, every target the service refuses: not absolute, a query string
// (even an empty one), a fragment, a backslash, any percent escape, a character outside pchar, an empty segment
// and a "." or ".." segment.
func CanonicalPath(path string) (string, error) {
	refuse := func(r PathRefusal) (string, error) { return "", &PathError{Path: path, Reason: r} }
	if !strings.HasPrefix(path, "/") {
		return refuse(PathNotAbsolute)
	}
	switch {
	case strings.Contains(path, "?"):
		return refuse(PathQueryString)
	case strings.Contains(path, "#"):
		return refuse(PathFragment)
	case strings.Contains(path, `\`):
		return refuse(PathBackslash)
	case strings.Contains(path, "%"):
		return refuse(PathPercentEncoded)
	}
	for i := 0; i < len(path); i++ {
		if path[i] != '/' && !isPathChar(path[i]) {
			return refuse(PathInvalidCharacter)
		}
	}
	if path == "/" {
		return path, nil
	}
	canonical := strings.TrimSuffix(path, "/")
	for _, seg := range strings.Split(canonical[1:], "/") {
		switch seg {
		case "":
			return refuse(PathEmptySegment)
		case ".", "..":
			return refuse(PathDotSegment)
		}
	}
	return canonical, nil
}
