package intent

import (
	"bytes"
	"errors"
	"maps"
	"testing"
)

type signingCase struct {
	Name           string            `json:"name"`
	AuthVersion    int               `json:"authVersion"`
	PartnerID      string            `json:"partnerId"`
	Secret         string            `json:"secret"`
	Method         string            `json:"method"`
	Path           string            `json:"path"`
	CanonicalPath  string            `json:"canonicalPath"`
	Timestamp      string            `json:"timestamp"`
	Nonce          *string           `json:"nonce"`
	IdempotencyKey *string           `json:"idempotencyKey"`
	Body           vBytes            `json:"body"`
	BodySHA256     string            `json:"bodySha256"`
	SignedMessage  vBytes            `json:"signedMessage"`
	Signature      string            `json:"signature"`
	Headers        map[string]string `json:"headers"`
}

func TestSigningVectors(t *testing.T) {
	var file struct{ Cases []signingCase }
	loadVectors(t, "signing.json", &file)
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.AuthVersion != 1 && c.AuthVersion != 2 {
				t.Fatalf("authVersion %d", c.AuthVersion)
			}
			s, err := SignRequest(
				Credentials{PartnerID: c.PartnerID, Secret: c.Secret, AuthVersion: c.AuthVersion},
				Request{Method: c.Method, Path: c.Path, Body: c.Body.bytes(t), IdempotencyKey: str(c.IdempotencyKey)},
				c.Timestamp, str(c.Nonce))
			if err != nil {
				t.Fatal(err)
			}
			if s.CanonicalPath != c.CanonicalPath {
				t.Errorf("canonicalPath %q, want %q", s.CanonicalPath, c.CanonicalPath)
			}
			if s.BodySHA256 != c.BodySHA256 {
				t.Errorf("bodySha256 %s, want %s", s.BodySHA256, c.BodySHA256)
			}
			if want := c.SignedMessage.bytes(t); !bytes.Equal(s.SignedMessage, want) {
				t.Errorf("signedMessage\n%q\nwant\n%q", s.SignedMessage, want)
			}
			if s.Signature != c.Signature {
				t.Errorf("signature %s, want %s", s.Signature, c.Signature)
			}
			if !maps.Equal(s.Headers, c.Headers) {
				t.Errorf("headers\n%v\nwant\n%v", s.Headers, c.Headers)
			}
		})
	}
	checkCount(t, "signing.json", len(file.Cases))
}

type pathCase struct {
	Input     string `json:"input"`
	OK        bool   `json:"ok"`
	Canonical string `json:"canonical"`
	Reason    string `json:"reason"`
	Status    int    `json:"status"`
	Code      string `json:"code"`
}

func TestPathVectors(t *testing.T) {
	var file struct{ Cases []pathCase }
	loadVectors(t, "paths.json", &file)
	for _, c := range file.Cases {
		t.Run(c.Input, func(t *testing.T) {
			got, err := CanonicalPath(c.Input)
			if c.OK {
				if err != nil || got != c.Canonical {
					t.Fatalf("CanonicalPath = %q, %v; want %q", got, err, c.Canonical)
				}
				return
			}
			var perr *PathError
			if !errors.As(err, &perr) {
				t.Fatalf("CanonicalPath = %q, %v; want refusal %s", got, err, c.Reason)
			}
			if string(perr.Reason) != c.Reason || perr.Code() != c.Code || perr.Status() != c.Status {
				t.Errorf("refused %s (%d %s), want %s (%d %s)", perr.Reason, perr.Status(), perr.Code(), c.Reason, c.Status, c.Code)
			}
			// The signer refuses the same targets.
			if _, err := SignRequest(Credentials{PartnerID: "p", Secret: "s"}, Request{Method: "GET", Path: c.Input}, "1", "n"); !errors.As(err, &perr) {
				t.Errorf("SignRequest signed a refused path: %v", err)
			}
		})
	}
	checkCount(t, "paths.json", len(file.Cases))
}

type verifyCase struct {
	Name    string `json:"name"`
	Request struct {
		Method  string      `json:"method"`
		Path    string      `json:"path"`
		Headers [][2]string `json:"headers"`
		Body    vBytes      `json:"body"`
	} `json:"request"`
	Expected struct {
		OK            bool   `json:"ok"`
		Secret        string `json:"secret"`
		CanonicalPath string `json:"canonicalPath"`
		Status        int    `json:"status"`
		Code          string `json:"code"`
	} `json:"expected"`
}

// TestVerifyVectors: every request the service accepts is one this signer produces byte for byte (same
// signature header from the same inputs), and every refusal's code is one the SDK knows, with its status.
func TestVerifyVectors(t *testing.T) {
	var file struct {
		Partners []struct {
			PartnerID      string `json:"partnerId"`
			Secret         string `json:"secret"`
			PreviousSecret string `json:"previousSecret"`
			AuthVersion    int    `json:"authVersion"`
		} `json:"partners"`
		Cases []verifyCase `json:"cases"`
	}
	loadVectors(t, "verify.json", &file)
	accepted := 0
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			if !c.Expected.OK {
				status, _, ok := KnownCode(c.Expected.Code)
				if !ok || status != c.Expected.Status {
					t.Errorf("code %s (%d) unknown to the SDK or with another status (%d)", c.Expected.Code, c.Expected.Status, status)
				}
				return
			}
			accepted++
			h := map[string]string{}
			for _, kv := range c.Request.Headers {
				h[kv[0]] = kv[1]
			}
			var creds *Credentials
			for _, p := range file.Partners {
				if p.PartnerID == h[HeaderPartnerID] {
					secret := p.Secret
					if c.Expected.Secret == "previous" {
						secret = p.PreviousSecret
					}
					creds = &Credentials{PartnerID: p.PartnerID, Secret: secret, AuthVersion: p.AuthVersion}
				}
			}
			if creds == nil {
				t.Fatalf("no partner %q", h[HeaderPartnerID])
			}
			s, err := SignRequest(*creds, Request{Method: c.Request.Method, Path: c.Request.Path,
				Body: c.Request.Body.bytes(t), IdempotencyKey: h[HeaderIdempotencyKey]}, h[HeaderTimestamp], h[HeaderNonce])
			if err != nil {
				t.Fatal(err)
			}
			if s.CanonicalPath != c.Expected.CanonicalPath {
				t.Errorf("canonicalPath %q, want %q", s.CanonicalPath, c.Expected.CanonicalPath)
			}
			if s.Signature != h[HeaderSignature] {
				t.Errorf("signature %s, the accepted request has %s", s.Signature, h[HeaderSignature])
			}
		})
	}
	if accepted == 0 {
		t.Error("verify.json: no accepted request")
	}
	checkCount(t, "verify.json", len(file.Cases))
}
