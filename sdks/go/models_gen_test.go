package intent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/intent-service/partner-go/internal/openapigen"
)

// openAPIPath is the repository's docs/openapi.json, read at test time.
func openAPIPath() string {
	if p := os.Getenv("INTENT_OPENAPI"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "docs", "openapi.json")
}

// TestModelsUpToDate regenerates models_gen.go in memory from docs/openapi.json and fails on any difference:
// run `go run ./internal/gen` after a contract change.
func TestModelsUpToDate(t *testing.T) {
	raw, err := os.ReadFile(openAPIPath())
	if err != nil {
		t.Fatal(err)
	}
	want, err := openapigen.Generate(raw)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("models_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("models_gen.go differs from docs/openapi.json: run `go run ./internal/gen` in sdks/go")
	}
}

// TestModelsCoverEverySchema: every schema of the contract is a Go type of the generated file.
func TestModelsCoverEverySchema(t *testing.T) {
	raw, err := os.ReadFile(openAPIPath())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile("models_gen.go")
	for name := range doc.Components.Schemas {
		goName := name
		if name == "WebhookEvent" {
			goName = "WebhookPayload"
		}
		if !bytes.Contains(src, []byte("\ntype "+goName+" ")) {
			t.Errorf("schema %s has no type %s", name, goName)
		}
	}
	checkCount(t, "openapi.json schemas", len(doc.Components.Schemas))
}

// TestGoName pins the identifier rules (initialisms) the generated API depends on.
func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"attemptId": "AttemptID", "callbackUrl": "CallbackURL", "apiVersion": "APIVersion", "priceUSD": "PriceUSD",
		"otherAttemptIds": "OtherAttemptIDs", "ok": "OK", "awaiting_evidence": "AwaitingEvidence", "txHashes": "TxHashes",
	} {
		if got := openapigen.GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestModelsDecodeTheContractExamples: the error vectors' bodies decode into ErrorResponse (a typed check that the
// generated tags are the wire names).
func TestModelsDecodeErrorBodies(t *testing.T) {
	var file struct {
		Codes []struct {
			Code    string          `json:"code"`
			Example json.RawMessage `json:"example"`
		} `json:"cases"`
	}
	loadVectors(t, "errors.json", &file)
	for _, c := range file.Codes {
		var e ErrorResponse
		if err := json.Unmarshal(c.Example, &e); err != nil {
			t.Fatalf("%s: %v", c.Code, err)
		}
		if string(e.Code) != c.Code || e.RequestID == "" || e.Message == "" {
			t.Errorf("%s decoded as %+v", c.Code, e)
		}
	}
	checkCount(t, "errors.json", len(file.Codes))
}
