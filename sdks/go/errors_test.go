package intent

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

type errorCase struct {
	Code    string          `json:"code"`
	Status  int             `json:"status"`
	Example json.RawMessage `json:"example"`
}

// TestErrorsVectors parses every example body, and checks the SDK's registry against the file both ways: every
// code of the file is known with its status, and the SDK knows no code the file lacks.
func TestErrorsVectors(t *testing.T) {
	var file struct {
		APIVersion  string      `json:"apiVersion"`
		Cases       []errorCase `json:"cases"`
		FieldErrors struct {
			Status   int             `json:"status"`
			Response json.RawMessage `json:"response"`
		} `json:"fieldErrors"`
	}
	loadVectors(t, "errors.json", &file)
	seen := map[string]bool{}
	for _, c := range file.Cases {
		t.Run(c.Code, func(t *testing.T) {
			if seen[c.Code] {
				t.Fatalf("code %s twice in the vectors", c.Code)
			}
			seen[c.Code] = true
			status, kind, ok := KnownCode(c.Code)
			if !ok || status != c.Status {
				t.Fatalf("registry: %s is %d/%v, want %d", c.Code, status, ok, c.Status)
			}
			var want envelope
			if err := json.Unmarshal(c.Example, &want); err != nil {
				t.Fatal(err)
			}
			e := ParseError(c.Status, c.Example)
			if e.Code != c.Code || e.Status != c.Status || !e.Known || e.Kind != kind {
				t.Errorf("parsed %+v", e)
			}
			if e.Message != want.Message || e.Path != want.Path || e.RequestID != want.RequestID ||
				e.ErrorText != want.Error || e.APIVersion != file.APIVersion || !reflect.DeepEqual(e.Details, want.Details) {
				t.Errorf("parsed %+v\nfrom %s", e, c.Example)
			}
			var err error = e
			if !errors.Is(err, kind) {
				t.Errorf("errors.Is(err, %s) is false", kind)
			}
			if KindOfStatus(c.Status) != kind && !isReclassified(c.Code) {
				t.Errorf("%s: family %s differs from its status's (%s)", c.Code, kind, KindOfStatus(c.Status))
			}
			// Fields the SDK does not know are tolerated.
			var m map[string]any
			_ = json.Unmarshal(c.Example, &m)
			m["someFutureField"] = map[string]any{"x": []int{1}}
			extended, _ := json.Marshal(m)
			if e2 := ParseError(c.Status, extended); e2.Code != c.Code || e2.Message != want.Message || e2.RequestID != want.RequestID {
				t.Errorf("with an unknown field: %+v", e2)
			}
		})
	}
	for code := range codes {
		if !seen[code] {
			t.Errorf("the SDK knows %s, errors.json does not", code)
		}
	}
	checkCount(t, "errors.json", len(file.Cases))

	t.Run("fieldErrors", func(t *testing.T) {
		var want envelope
		if err := json.Unmarshal(file.FieldErrors.Response, &want); err != nil {
			t.Fatal(err)
		}
		e := ParseError(file.FieldErrors.Status, file.FieldErrors.Response)
		if len(want.Details) == 0 || !reflect.DeepEqual(e.Details, want.Details) || e.Code != want.Code || e.Kind != KindValidation {
			t.Errorf("parsed %+v, want details %+v", e, want.Details)
		}
		for _, d := range e.Details {
			if _, _, ok := KnownCode(string(d.Code)); !ok {
				t.Errorf("detail code %s unknown", d.Code)
			}
		}
	})
}

// isReclassified: codes whose family is not their status's (external_auth_nonce_conflict is a 409 but a signing
// mistake).
func isReclassified(code string) bool { return code == CodeExternalAuthNonceConflict }

func TestParseErrorNotAnEnvelope(t *testing.T) {
	e := ParseError(502, []byte("<html>Bad Gateway</html>"))
	if e.Code != "" || e.Known || e.Kind != KindServer || !errors.Is(e, KindServer) {
		t.Errorf("%+v", e)
	}
	e = ParseError(409, []byte(`{"code":"some_new_code","message":"m","requestId":"r"}`))
	if e.Known || e.Kind != KindConflict || e.Code != "some_new_code" || e.RequestID != "r" {
		t.Errorf("%+v", e)
	}
}

// Every refusal the other vector files name (cursor refusals, idempotency refusals and key rules, path
// refusals) is a code the SDK knows, with the same status.
func TestCodesOfOtherVectorsKnown(t *testing.T) {
	type refusal struct {
		Status int    `json:"status"`
		Code   string `json:"code"`
	}
	var cursors map[string]json.RawMessage
	loadVectors(t, "cursors.json", &cursors)
	var all []refusal
	for _, kind := range []string{"searchAttempts", "webhookEvents", "webhookRecover"} {
		var k struct{ Refusals []refusal }
		if err := json.Unmarshal(cursors[kind], &k); err != nil || len(k.Refusals) == 0 {
			t.Fatalf("cursors.json %s: %v", kind, err)
		}
		all = append(all, k.Refusals...)
	}
	var idem struct {
		Scenarios []struct{ Expected refusal }
		KeyHeader []struct{ Expected refusal } `json:"keyHeader"`
	}
	loadVectors(t, "idempotency.json", &idem)
	for _, s := range idem.Scenarios {
		all = append(all, s.Expected)
	}
	for _, s := range idem.KeyHeader {
		all = append(all, s.Expected)
	}
	var paths struct{ Cases []refusal }
	loadVectors(t, "paths.json", &paths)
	all = append(all, paths.Cases...)
	n := 0
	for _, r := range all {
		if r.Code == "" {
			continue
		}
		n++
		if status, _, ok := KnownCode(r.Code); !ok || status != r.Status {
			t.Errorf("%s (%d): known %v with status %d", r.Code, r.Status, ok, status)
		}
	}
	checkCount(t, "refusal codes in cursors/idempotency/paths", n)
}
