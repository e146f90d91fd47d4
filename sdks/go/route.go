package intent

// operationRoute is one operation's method and path template (after /api/external), from docs/openapi.json.
type operationRoute struct {
	Method string
	Path   string
}
