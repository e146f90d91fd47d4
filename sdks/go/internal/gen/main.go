// Command gen writes models_gen.go from docs/openapi.json. Run it from sdks/go:
//
//	go run ./internal/gen
//
// TestModelsUpToDate fails when models_gen.go differs from what this writes.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/intent-service/partner-go/internal/openapigen"
)

func main() {
	in := filepath.Join("..", "..", "docs", "openapi.json")
	out := "models_gen.go"
	if len(os.Args) == 3 {
		in, out = os.Args[1], os.Args[2]
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	src, err := openapigen.Generate(raw)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
