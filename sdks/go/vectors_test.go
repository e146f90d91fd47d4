package intent

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// vectorsDir is the repository's sdks/vectors, read at test time (never copied). INTENT_VECTORS_DIR points the
// tests at another directory, e.g. an edited copy, to see them fail.
func vectorsDir() string {
	if d := os.Getenv("INTENT_VECTORS_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "vectors")
}

func loadVectors(t *testing.T, file string, into any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorsDir(), file))
	if err != nil {
		t.Fatalf("reading vectors: %v", err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("parsing %s: %v", file, err)
	}
}

// vBytes is the vectors' byte convention: base64 is the truth, utf8 is only for reading.
type vBytes struct {
	Base64 string  `json:"base64"`
	UTF8   *string `json:"utf8"`
}

func (b vBytes) bytes(t *testing.T) []byte {
	t.Helper()
	out, err := base64.StdEncoding.DecodeString(b.Base64)
	if err != nil {
		t.Fatalf("bad base64 in vectors: %v", err)
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// checkCount fails a test that ran no case: an emptied or renamed vector file must not pass silently.
func checkCount(t *testing.T, file string, n int) {
	t.Helper()
	if n == 0 {
		t.Fatalf("%s: no case ran", file)
	}
	t.Logf("%s: %d cases", file, n)
}
