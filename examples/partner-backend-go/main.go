// Command partner-backend-go is the example partner backend in Go: the same routes, bodies and behaviour as
// examples/partner-backend (TypeScript), on net/http and the Go SDK. Configured by its environment (README.md).
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	intent "github.com/intent-service/partner-go"
	"github.com/intent-service/partner-go/sandbox"
)

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func main() {
	partnerID := env("PARTNER_ID", "demo-partner")
	secret := env("PARTNER_SECRET", "dev-only-secret-do-not-use-in-production")
	dataDir := env("EXAMPLE_DATA_DIR", ".partner-backend")
	authVersion := 2
	if os.Getenv("PARTNER_AUTH_VERSION") == "1" {
		authVersion = 1
	}
	client, err := intent.NewClient(intent.Options{
		BaseURL:          env("SERVICE_URL", "http://127.0.0.1:3000"),
		PartnerID:        partnerID,
		Secret:           secret,
		AuthVersion:      authVersion,
		IdempotencyStore: intent.NewFileIdempotencyStore(filepath.Join(dataDir, "idempotency.json")),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b := &Backend{
		Client: client, PartnerID: partnerID, Secret: secret,
		Processed: &intent.FileProcessedEventStore{Path: filepath.Join(dataDir, "processed-webhooks.txt")},
		Log:       func(f string, a ...any) { fmt.Printf(f+"\n", a...) },
	}
	if manifest := os.Getenv("SANDBOX_MANIFEST"); manifest != "" {
		user, err := strconv.Atoi(env("SANDBOX_USER", "0"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "SANDBOX_USER:", err)
			os.Exit(1)
		}
		b.SandboxWallet = sandboxWallet(manifest, user)
	}
	port := env("EXAMPLE_PORT", "4000")
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(os.Stderr, "port %s on 127.0.0.1 is taken (npm start's webhook receiver?): start this backend first, or set EXAMPLE_PORT\n", port)
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	if b.SandboxWallet != nil {
		fmt.Printf("SANDBOX wallet (user %s of %s; sandbox only) on POST /sandbox/orders/{id}/pay\n", env("SANDBOX_USER", "0"), os.Getenv("SANDBOX_MANIFEST"))
	}
	if err := http.Serve(ln, b.Handler()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// sandboxWallet, SANDBOX ONLY, plays the user's wallet with the manifest's funded development account. In
// production this code does not exist on your backend: your frontend hands chainActions and walletAuthorization
// to the user's wallet, which sends the transactions and signs (eth_signTypedData_v4), then posts the hashes and
// the signature to POST /orders/{attemptId}/submitted. A private key never reaches a partner's backend.
func sandboxWallet(manifestPath string, user int) func(context.Context, *intent.PrepareResponse) (*WalletResult, error) {
	return func(ctx context.Context, prepared *intent.PrepareResponse) (*WalletResult, error) {
		// Read at each payment: npm start rewrites the manifest (new ports) every time it starts.
		m, err := sandbox.LoadManifest(manifestPath)
		if err != nil {
			return nil, err
		}
		_, key, err := m.UserKey(user)
		if err != nil {
			return nil, err
		}
		body, err := sandbox.ExecutePrepared(ctx, prepared, key, m.Chains, nil)
		if err != nil {
			return nil, err
		}
		return &WalletResult{ChainResults: body.ChainResults, Signature: body.WalletAuthorization.Signature}, nil
	}
}
