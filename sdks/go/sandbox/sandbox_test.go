package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	intent "github.com/intent-service/partner-go"
)

// walletVector is one case of sdks/vectors/wallet-authorization.json: a captured walletAuthorization signed by viem's
// signTypedData (the TypeScript wallet part) with an anvil development key.
type walletVector struct {
	Name                string                              `json:"name"`
	Address             string                              `json:"address"`
	PrivateKey          string                              `json:"privateKey"`
	WalletAuthorization intent.WalletAuthorizationTypedData `json:"walletAuthorization"`
	Signature           string                              `json:"signature"`
}

func loadWalletVectors(t *testing.T) []walletVector {
	dir := os.Getenv("INTENT_VECTORS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "vectors")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "wallet-authorization.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []walletVector `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("wallet-authorization.json has no cases")
	}
	return file.Cases
}

// TestSignatureEqualsViem: for every case of the shared vectors, the signature of the typed data as returned equals
// what viem's signTypedData produced, and recovers to the signer's address with v = 27/28.
func TestSignatureEqualsViem(t *testing.T) {
	for _, v := range loadWalletVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			key, err := crypto.HexToECDSA(strings.TrimPrefix(v.PrivateKey, "0x"))
			if err != nil {
				t.Fatal(err)
			}
			sig, err := SignWalletAuthorization(&v.WalletAuthorization, key)
			if err != nil {
				t.Fatal(err)
			}
			if sig != v.Signature {
				t.Fatalf("signature %s, viem %s", sig, v.Signature)
			}
			raw := hexutil.MustDecode(sig)
			if raw[64] != 27 && raw[64] != 28 {
				t.Fatalf("v = %d", raw[64])
			}
			td, _ := typedData(&v.WalletAuthorization)
			hash, _, _ := apitypes.TypedDataAndHash(td)
			raw[64] -= 27
			pub, err := crypto.SigToPub(hash, raw)
			if err != nil || !strings.EqualFold(crypto.PubkeyToAddress(*pub).Hex(), v.Address) {
				t.Fatalf("recovered %v %v", pub, err)
			}
			// One changed message field changes the signature (the message is really signed).
			v.WalletAuthorization.Message.ExpiresAt++
			if other, _ := SignWalletAuthorization(&v.WalletAuthorization, key); other == v.Signature {
				t.Fatal("expiresAt is not covered")
			}
		})
	}
}

// fakeRPC answers eth_chainId with id.
func fakeRPC(t *testing.T, id int64) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x%x"}`, req.ID, id)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestSafetyChecks: nothing is signed or sent for a chain off loopback, an RPC answering another chain id, a chain
// action on a chain the sandbox does not run, another wallet's attempt, or an attempt no longer prepared.
func TestSafetyChecks(t *testing.T) {
	ctx := context.Background()
	f := loadWalletVectors(t)[0]
	key, _ := crypto.HexToECDSA(strings.TrimPrefix(f.PrivateKey, "0x"))
	rpc1 := fakeRPC(t, 1)
	if err := CheckChains(ctx, []Chain{{ChainID: 1, RPCURL: rpc1.URL}}); err != nil {
		t.Fatalf("loopback chain 1 refused: %v", err)
	}
	for name, chains := range map[string][]Chain{
		"not loopback":   {{ChainID: 1, RPCURL: "http://192.0.2.1:8545"}},
		"not http":       {{ChainID: 1, RPCURL: "ws://127.0.0.1:1"}},
		"wrong chain id": {{ChainID: 8453, RPCURL: rpc1.URL}},
		"no answer":      {{ChainID: 1, RPCURL: "http://127.0.0.1:1"}},
	} {
		if err := CheckChains(ctx, chains); !errors.Is(err, ErrUnsafe) {
			t.Errorf("%s: %v", name, err)
		}
	}
	prepared := func() *intent.PrepareResponse {
		wa := f.WalletAuthorization
		return &intent.PrepareResponse{AttemptID: "at_1", Status: intent.AttemptStatusPrepared, WalletAuthorization: &wa,
			ChainActions: []intent.ChainAction{{ChainID: 1, Transactions: []intent.ChainTransaction{}}}}
	}
	signed := false
	progress := func(p Progress) { signed = true }
	// The happy path with no transactions: signs, reports an empty chain result.
	body, err := ExecutePrepared(ctx, prepared(), key, []Chain{{ChainID: 1, RPCURL: rpc1.URL}}, progress)
	if err != nil || !signed || body.WalletAuthorization.Signature != f.Signature || len(body.ChainResults) != 1 {
		t.Fatalf("%+v %v", body, err)
	}
	other, _ := crypto.GenerateKey()
	cases := map[string]func() (*intent.PrepareResponse, []Chain, func()){
		"other wallet": func() (*intent.PrepareResponse, []Chain, func()) {
			return prepared(), []Chain{{ChainID: 1, RPCURL: rpc1.URL}}, func() { key, other = other, key }
		},
		"not prepared": func() (*intent.PrepareResponse, []Chain, func()) {
			p := prepared()
			p.Status = intent.AttemptStatusWalletSubmitted
			return p, []Chain{{ChainID: 1, RPCURL: rpc1.URL}}, nil
		},
		"unknown chain": func() (*intent.PrepareResponse, []Chain, func()) {
			return prepared(), []Chain{{ChainID: 8453, RPCURL: rpc1.URL}}, nil
		},
		"real RPC": func() (*intent.PrepareResponse, []Chain, func()) {
			return prepared(), []Chain{{ChainID: 1, RPCURL: "https://eth.example.com"}}, nil
		},
		"wrong chain id": func() (*intent.PrepareResponse, []Chain, func()) {
			return prepared(), []Chain{{ChainID: 1, RPCURL: fakeRPC(t, 42161).URL}}, nil
		},
	}
	for name, mk := range cases {
		p, chains, swap := mk()
		if swap != nil {
			swap()
		}
		signed = false
		_, err := ExecutePrepared(ctx, p, key, chains, progress)
		if swap != nil {
			swap()
		}
		if !errors.Is(err, ErrUnsafe) || signed {
			t.Errorf("%s: %v (signed %v)", name, err, signed)
		}
	}
}

func TestLoadManifest(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "manifest.json")
	f := loadWalletVectors(t)[0]
	os.WriteFile(p, []byte(`{"chains":[{"chainId":1,"name":"ethereum","rpcUrl":"http://127.0.0.1:8545"}],"wallets":{"users":[{"address":"`+f.Address+`","privateKey":"`+f.PrivateKey+`"}]}}`), 0o600)
	m, err := LoadManifest(p)
	if err != nil {
		t.Fatal(err)
	}
	addr, _, err := m.UserKey(0)
	if err != nil || addr.Hex() != f.Address {
		t.Fatalf("%s %v", addr.Hex(), err)
	}
	if _, _, err := m.UserKey(1); err == nil {
		t.Fatal("user 1 of 1")
	}
	os.WriteFile(p, []byte(`{"chains":[]}`), 0o600)
	if _, err := LoadManifest(p); err == nil {
		t.Fatal("empty manifest accepted")
	}
}
