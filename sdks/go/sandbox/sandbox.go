// Package sandbox is the wallet's part of the flow, for the provider sandbox only: it reads the sandbox manifest
// (written by `npm start`), signs a prepared attempt's EIP-712 walletAuthorization exactly as returned, and sends
// each chain action's transactions in order with one of anvil's public development keys.
//
// In production none of this runs on a partner's backend: the user's own wallet executes the chain actions and
// signs the authorization (eth_sendTransaction, eth_signTypedData_v4), and no private key ever reaches the
// partner. The safety checks below refuse anything but the sandbox's loopback chains.
package sandbox

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	intent "github.com/intent-service/partner-go"
)

// Chain is one sandbox chain of the manifest.
type Chain struct {
	ChainID int64  `json:"chainId"`
	Name    string `json:"name"`
	RPCURL  string `json:"rpcUrl"`
}

// User is one funded anvil development account of the manifest (public keys: never use them elsewhere).
type User struct {
	Address    string `json:"address"`
	PrivateKey string `json:"privateKey"`
}

// Manifest is the part of the sandbox's manifest.json this package reads.
type Manifest struct {
	URL     string  `json:"url"`
	Chains  []Chain `json:"chains"`
	Wallets struct {
		Users []User `json:"users"`
	} `json:"wallets"`
}

// ErrUnsafe is wrapped by every refusal of the safety checks: nothing was signed or sent.
var ErrUnsafe = errors.New("sandbox: refused")

// LoadManifest reads the sandbox manifest (e.g. .sandbox/manifest.json). It checks its shape only; call
// CheckChains before sending anything.
func LoadManifest(path string) (*Manifest, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("sandbox: %s: %w", path, err)
	}
	if len(m.Chains) == 0 || len(m.Wallets.Users) == 0 {
		return nil, fmt.Errorf("sandbox: %s names no chains or no funded wallets", path)
	}
	return &m, nil
}

// UserKey returns user n's address and private key.
func (m *Manifest) UserKey(n int) (common.Address, *ecdsa.PrivateKey, error) {
	if n < 0 || n >= len(m.Wallets.Users) {
		return common.Address{}, nil, fmt.Errorf("sandbox: no user %d (the manifest has %d)", n, len(m.Wallets.Users))
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(m.Wallets.Users[n].PrivateKey, "0x"))
	if err != nil {
		return common.Address{}, nil, fmt.Errorf("sandbox: user %d key: %w", n, err)
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	if !strings.EqualFold(addr.Hex(), m.Wallets.Users[n].Address) {
		return common.Address{}, nil, fmt.Errorf("sandbox: user %d key does not match its address", n)
	}
	return addr, key, nil
}

// isLoopback: the URL's host is a loopback address or localhost.
func isLoopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckChains refuses (ErrUnsafe) unless every chain's RPC URL is on loopback and answers eth_chainId with the
// manifest's chain id: the sandbox reuses real chain ids and its keys are public, so a real RPC must never be used.
func CheckChains(ctx context.Context, chains []Chain) error {
	for _, c := range chains {
		if !isLoopback(c.RPCURL) {
			return fmt.Errorf("%w: chain %d's RPC %s is not on loopback", ErrUnsafe, c.ChainID, c.RPCURL)
		}
		cl, err := ethclient.DialContext(ctx, c.RPCURL)
		if err != nil {
			return fmt.Errorf("%w: chain %d's RPC %s: %v", ErrUnsafe, c.ChainID, c.RPCURL, err)
		}
		id, err := cl.ChainID(ctx)
		cl.Close()
		if err != nil {
			return fmt.Errorf("%w: chain %d's RPC %s does not answer eth_chainId: %v", ErrUnsafe, c.ChainID, c.RPCURL, err)
		}
		if id.Cmp(big.NewInt(c.ChainID)) != 0 {
			return fmt.Errorf("%w: chain %d's RPC %s answers chain id %s", ErrUnsafe, c.ChainID, c.RPCURL, id)
		}
	}
	return nil
}

// typedData converts the returned walletAuthorization to go-ethereum's TypedData, exactly as returned: the
// EIP712Domain type is derived from the domain's fields (name and version only), the message holds the fields the
// primary type lists. A listed field this SDK's model does not carry is an error, never a guess.
func typedData(wa *intent.WalletAuthorizationTypedData) (apitypes.TypedData, error) {
	td := apitypes.TypedData{
		Types:       apitypes.Types{},
		PrimaryType: wa.PrimaryType,
		Domain:      apitypes.TypedDataDomain{Name: wa.Domain.Name, Version: wa.Domain.Version},
	}
	td.Types["EIP712Domain"] = []apitypes.Type{{Name: "name", Type: "string"}, {Name: "version", Type: "string"}}
	for name, fields := range wa.Types {
		for _, f := range fields {
			td.Types[name] = append(td.Types[name], apitypes.Type{Name: f.Name, Type: f.Type})
		}
	}
	raw, err := json.Marshal(wa.Message)
	if err != nil {
		return td, err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return td, err
	}
	td.Message = apitypes.TypedDataMessage{}
	primary, ok := td.Types[wa.PrimaryType]
	if !ok {
		return td, fmt.Errorf("sandbox: walletAuthorization has no type %q", wa.PrimaryType)
	}
	for _, f := range primary {
		v, ok := fields[f.Name]
		if !ok {
			return td, fmt.Errorf("sandbox: walletAuthorization field %q is unknown to this SDK version: upgrade it", f.Name)
		}
		if n, isNum := v.(json.Number); isNum {
			v = n.String()
		}
		td.Message[f.Name] = v
	}
	return td, nil
}

// SignWalletAuthorization signs the typed data as eth_signTypedData_v4 does: the 65-byte r‖s‖v signature,
// v = 27 or 28, 0x-prefixed hex.
func SignWalletAuthorization(wa *intent.WalletAuthorizationTypedData, key *ecdsa.PrivateKey) (string, error) {
	td, err := typedData(wa)
	if err != nil {
		return "", err
	}
	hash, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return "", fmt.Errorf("sandbox: hashing the walletAuthorization: %w", err)
	}
	sig, err := crypto.Sign(hash, key)
	if err != nil {
		return "", err
	}
	sig[64] += 27
	return hexutil.Encode(sig), nil
}

// Progress is one step of ExecutePrepared, for printing.
type Progress struct {
	Kind      string // "signed" or "transaction"
	Signature string // Kind "signed"
	ChainID   int64
	Index     int // 0-based position in the chain action
	Count     int
	To        string
	Hash      string
	Block     uint64
	Elapsed   time.Duration
}

// ExecutePrepared does what the user's wallet does with a prepare answer: after the safety checks (the attempt
// is `prepared`, its wallet is key's address, every chain action is on one of chains, each on loopback and
// answering its chain id), it signs the walletAuthorization exactly as returned, then for each chain action in
// order sends its transactions (or its calls, one after another) as EIP-1559 transactions (nonce and fees from
// the node, gas as returned or estimated), each after the previous one's receipt. A reverted transaction stops
// it with an error. It returns the body to report with Client.Submitted.
func ExecutePrepared(ctx context.Context, prepared *intent.PrepareResponse, key *ecdsa.PrivateKey, chains []Chain, onProgress func(Progress)) (*intent.SubmittedRequest, error) {
	if onProgress == nil {
		onProgress = func(Progress) {}
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	wa := prepared.WalletAuthorization
	switch {
	case prepared.Status != intent.AttemptStatusPrepared:
		return nil, fmt.Errorf("%w: attempt %s is %s, not prepared: executing it again would spend the funds twice", ErrUnsafe, prepared.AttemptID, prepared.Status)
	case wa == nil:
		return nil, fmt.Errorf("attempt %s carries no walletAuthorization to sign", prepared.AttemptID)
	case !strings.EqualFold(wa.Message.Wallet, from.Hex()):
		return nil, fmt.Errorf("%w: attempt %s is for wallet %s, not %s", ErrUnsafe, prepared.AttemptID, wa.Message.Wallet, from.Hex())
	}
	byID := map[int64]Chain{}
	for _, c := range chains {
		byID[c.ChainID] = c
	}
	var used []Chain
	for _, a := range prepared.ChainActions {
		c, ok := byID[a.ChainID]
		if !ok {
			return nil, fmt.Errorf("%w: chain action on chain %d, which the sandbox does not run", ErrUnsafe, a.ChainID)
		}
		used = append(used, c)
	}
	if err := CheckChains(ctx, used); err != nil {
		return nil, err
	}

	signature, err := SignWalletAuthorization(wa, key)
	if err != nil {
		return nil, err
	}
	onProgress(Progress{Kind: "signed", Signature: signature})

	out := &intent.SubmittedRequest{WalletAuthorization: &intent.WalletAuthorizationInput{Signature: signature}}
	for _, a := range prepared.ChainActions {
		type call struct {
			to, data, value string
			gas             *string
		}
		var calls []call
		for _, t := range a.Transactions {
			calls = append(calls, call{t.To, t.Data, t.Value, t.Gas})
		}
		if a.Transactions == nil {
			for _, t := range a.Calls {
				calls = append(calls, call{t.To, t.Data, t.Value, t.Gas})
			}
		}
		cl, err := ethclient.DialContext(ctx, byID[a.ChainID].RPCURL)
		if err != nil {
			return nil, err
		}
		var hashes []string
		for i, c := range calls {
			started := time.Now()
			hash, block, err := sendAndWait(ctx, cl, key, from, a.ChainID, c.to, c.data, c.value, c.gas)
			if err != nil {
				cl.Close()
				return nil, fmt.Errorf("transaction %d of %d on chain %d: %w", i+1, len(calls), a.ChainID, err)
			}
			hashes = append(hashes, hash)
			onProgress(Progress{Kind: "transaction", ChainID: a.ChainID, Index: i, Count: len(calls), To: c.to, Hash: hash, Block: block, Elapsed: time.Since(started)})
		}
		cl.Close()
		out.ChainResults = append(out.ChainResults, intent.ChainResultInput{ChainID: a.ChainID, TxHashes: hashes})
	}
	return out, nil
}

// ErrReverted is wrapped by the error of a transaction whose receipt says it reverted.
var ErrReverted = errors.New("sandbox: transaction reverted")

func sendAndWait(ctx context.Context, cl *ethclient.Client, key *ecdsa.PrivateKey, from common.Address, chainID int64, toHex, dataHex, valueDec string, gasDec *string) (string, uint64, error) {
	to := common.HexToAddress(toHex)
	data, err := hexutil.Decode(dataHex)
	if err != nil && dataHex != "0x" && dataHex != "" {
		return "", 0, fmt.Errorf("data: %w", err)
	}
	value, ok := new(big.Int).SetString(valueDec, 10)
	if !ok {
		return "", 0, fmt.Errorf("value %q is not a decimal integer", valueDec)
	}
	nonce, err := cl.PendingNonceAt(ctx, from)
	if err != nil {
		return "", 0, err
	}
	tip, err := cl.SuggestGasTipCap(ctx)
	if err != nil {
		return "", 0, err
	}
	head, err := cl.HeaderByNumber(ctx, nil)
	if err != nil {
		return "", 0, err
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	var gas uint64
	if gasDec != nil {
		if g, ok := new(big.Int).SetString(*gasDec, 10); ok && g.Sign() > 0 && g.IsUint64() {
			gas = g.Uint64()
		}
	}
	if gas == 0 {
		gas, err = cl.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Value: value, Data: data})
		if err != nil {
			return "", 0, fmt.Errorf("estimating gas: %w", err)
		}
	}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(chainID), Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &to, Value: value, Data: data})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(big.NewInt(chainID)), key)
	if err != nil {
		return "", 0, err
	}
	if err := cl.SendTransaction(ctx, signed); err != nil {
		return "", 0, err
	}
	hash := signed.Hash()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := cl.TransactionReceipt(ctx, hash)
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				return hash.Hex(), r.BlockNumber.Uint64(), fmt.Errorf("%w: %s", ErrReverted, hash.Hex())
			}
			return hash.Hex(), r.BlockNumber.Uint64(), nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return hash.Hex(), 0, err
		}
		select {
		case <-ctx.Done():
			return hash.Hex(), 0, ctx.Err()
		case <-tick.C:
		}
	}
}
