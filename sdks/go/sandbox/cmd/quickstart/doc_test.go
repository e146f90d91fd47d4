package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocMatchesQuickstart: every Go block of docs/partners/go.md (except those marked "// Not in the quickstart")
// is a run of consecutive lines of this program, whitespace at the ends aside. Editing one without the other fails.
func TestDocMatchesQuickstart(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "..", "docs", "partners", "go.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	trim := func(text string) []string {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	program := "\n" + strings.Join(trim(string(src)), "\n") + "\n"
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	checked := 0
	for _, b := range blocks {
		if strings.HasPrefix(b[1], "// Not in the quickstart") {
			continue
		}
		checked++
		if !strings.Contains(program, "\n"+strings.Join(trim(b[1]), "\n")+"\n") {
			t.Errorf("docs/partners/go.md block is not in cmd/quickstart/main.go:\n%s", b[1])
		}
	}
	if checked < 8 {
		t.Fatalf("only %d blocks checked", checked)
	}
	t.Logf("%d blocks match", checked)
}
