// Command quickstart is the Go SDK's quickstart (docs/partners/go.md walks through it): one attempt from a quote
// to a verified `settled` webhook against the provider sandbox, using every operation of the API once, and each
// error family once on purpose.
//
// Environment: SERVICE_URL, PARTNER_ID, PARTNER_SECRET, PARTNER_AUTH_VERSION (1 or 2, default 2),
// SANDBOX_MANIFEST (the sandbox's manifest.json), SANDBOX_USER (default 0), WEBHOOK_PORT (the port of the
// partner's callbackUrl, path /webhooks). Exit code 0 once the settled webhook of the attempt was verified.
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
	"time"

	intent "github.com/intent-service/partner-go"
	"github.com/intent-service/partner-go/sandbox"
)

const usdc = "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35" // the sandbox's USDC, on chains 1, 8453 and 42161
const native = "0x0000000000000000000000000000000000000000"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart failed:", err)
		os.Exit(1)
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 85*time.Second)
	defer cancel()
	// The defaults are npm start's: its service, its demo partner (callbackUrl http://127.0.0.1:4000/webhooks) and
	// its sandbox manifest. Run `DEV_WEBHOOK_RECEIVER=off npm start` so that port 4000 is left to this program.
	partnerID := env("PARTNER_ID", "demo-partner")
	secret := env("PARTNER_SECRET", "dev-only-secret-do-not-use-in-production")
	serviceURL := env("SERVICE_URL", "http://127.0.0.1:3000")
	manifestPath := env("SANDBOX_MANIFEST", filepath.Join(env("SANDBOX_MANIFEST_DIR", ".sandbox"), "manifest.json"))
	authVersion, _ := strconv.Atoi(env("PARTNER_AUTH_VERSION", "2"))
	user, _ := strconv.Atoi(env("SANDBOX_USER", "0"))

	// 1. Receive webhooks first: verified on the raw bytes by the SDK (401 for a forgery), once per eventId.
	settled := make(chan *intent.WebhookEvent, 1)
	var attemptID string // set once prepared; the receiver only reads it after that
	prepared := make(chan struct{})
	webhooks := intent.WebhookHandler(intent.WebhookHandlerOptions{PartnerID: partnerID, Secrets: []string{secret}},
		func(ctx context.Context, ev *intent.WebhookEvent) error {
			fmt.Printf("  webhook %s attempt %s eventId %s (verified)\n", ev.Event, ev.AttemptID, ev.EventID)
			select {
			case <-prepared:
				if ev.Event == intent.WebhookEventKindSettled && ev.AttemptID == attemptID {
					select {
					case settled <- ev:
					default:
					}
				}
			default:
			}
			return nil
		})
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", webhooks)
	ln, err := net.Listen("tcp", "127.0.0.1:"+env("WEBHOOK_PORT", "4000"))
	if err != nil {
		return fmt.Errorf("webhook receiver: %w", err)
	}
	go http.Serve(ln, mux)
	fmt.Printf("  receiving webhooks on http://%s/webhooks\n", ln.Addr())

	// 2. The client: it signs every request, persists each POST's Idempotency-Key and body, and retries safely.
	client, err := intent.NewClient(intent.Options{
		BaseURL:     serviceURL,
		PartnerID:   partnerID,
		Secret:      secret,
		AuthVersion: authVersion,
	})
	if err != nil {
		return err
	}
	ping, err := client.Ping(ctx)
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	fmt.Printf("  authenticated as %s\n", ping.PartnerID)
	fmt.Println("op ping ok")

	// 3. The sandbox wallet: user SANDBOX_USER of the manifest (anvil's public development keys).
	manifest, err := sandbox.LoadManifest(manifestPath)
	if err != nil {
		return err
	}
	wallet, key, err := manifest.UserKey(user)
	if err != nil {
		return err
	}

	// 4. Quote: 5 USDC on Ethereum and 0.01 ETH on Arbitrum, into USDC on Base. Amounts are raw decimal strings.
	quote, err := client.Quote(ctx, intent.QuoteRequest{
		WalletAddress: wallet.Hex(),
		Recipient:     wallet.Hex(),
		Sources: []intent.SourceInput{
			{ChainID: 1, Address: usdc, Amount: "5000000", Symbol: "USDC", Decimals: 6},
			{ChainID: 42161, Address: native, Amount: "10000000000000000", Symbol: "ETH", Decimals: 18},
		},
		Target: &intent.TargetInput{ChainID: 8453, Address: usdc,
			TargetToken: intent.TargetTokenInput{Address: usdc, Symbol: "USDC", Decimals: 6}},
	})
	if err != nil {
		return fmt.Errorf("quote: %w", err)
	}
	fmt.Printf("  quote %s, intent session %s\n", quote.QuoteStatus, quote.IntentSessionID)
	fmt.Println("op quote ok")
	if quote.QuoteStatus != intent.QuoteStatusReady && quote.QuoteStatus != intent.QuoteStatusPartialOnly {
		return fmt.Errorf("quote is %s", quote.QuoteStatus)
	}

	// 5. Prepare at once (a quote lives about 60 s): the chain actions and the EIP-712 authorization.
	attempt, err := client.Prepare(ctx, quote.IntentSessionID, intent.PrepareRequest{})
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	attemptID = attempt.AttemptID
	close(prepared)
	fmt.Printf("  attempt %s prepared\n", attemptID)
	fmt.Println("op prepare ok")

	// 6. The wallet's part (sandbox only): sign, send every transaction in order, wait for the receipts.
	body, err := sandbox.ExecutePrepared(ctx, attempt, key, manifest.Chains, func(p sandbox.Progress) {
		if p.Kind == "transaction" {
			fmt.Printf("  chain %d: transaction %d/%d %s in block %d\n", p.ChainID, p.Index+1, p.Count, p.Hash, p.Block)
		}
	})
	if err != nil {
		return fmt.Errorf("wallet: %w", err)
	}

	// 7. Report it. One operation id per attempt: a retry after a crash resends the same key and bytes.
	snapshot, err := client.Submitted(ctx, attemptID, *body, intent.WithOperationID("submitted:"+attemptID))
	if err != nil {
		return fmt.Errorf("submitted: %w", err)
	}
	fmt.Printf("  reported: %s\n", snapshot.Status)
	fmt.Println("op submitted ok")

	// 8. Follow the live status stream to the end (it reconnects with Last-Event-ID by itself).
	for ev, err := range client.AttemptEvents(ctx, attemptID) {
		if err != nil {
			return fmt.Errorf("attemptEvents: %w", err)
		}
		fmt.Printf("  live %s (event %s)\n", ev.Event, ev.ID)
	}
	fmt.Println("op attemptEvents ok")

	status, err := client.Status(ctx, attemptID)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	fmt.Printf("  status %s\n", status.Status)
	fmt.Println("op status ok")
	if status.Status != intent.AttemptStatusSettled {
		return fmt.Errorf("attempt %s ended %s", attemptID, status.Status)
	}

	// 9. Look-ups: the wallet's attempts one per page (the pager follows nextCursor), then by transaction hash.
	limit := int64(1)
	found := 0
	for a, err := range client.AllAttempts(ctx, intent.AttemptSearchRequest{WalletAddress: wallet.Hex(), Limit: &limit}) {
		if err != nil {
			return fmt.Errorf("searchAttempts: %w", err)
		}
		found++
		fmt.Printf("  attempt %s %s\n", a.AttemptID, a.Status)
	}
	fmt.Printf("  %d attempts\n", found)
	fmt.Println("op searchAttempts ok")
	chain := body.ChainResults[0]
	byTx, err := client.TransactionAttempt(ctx, chain.ChainID, chain.TxHashes[0])
	if err != nil {
		return fmt.Errorf("transactionAttempt: %w", err)
	}
	fmt.Printf("  %d:%s belongs to %s\n", chain.ChainID, chain.TxHashes[0], byTx.AttemptID)
	fmt.Println("op transactionAttempt ok")

	// 10. The webhook event list, page by page; then poll after the last cursor for anything newer.
	var settledEventID, cursor string
	for page, err := range client.WebhookEventPages(ctx, "") {
		if err != nil {
			return fmt.Errorf("webhookEvents: %w", err)
		}
		for _, e := range page.Events {
			if e.AttemptID == attemptID && e.Event == intent.WebhookEventKindSettled {
				settledEventID = e.EventID
			}
		}
		cursor = page.NextCursor
	}
	fmt.Println("op webhookEvents ok")
	for _, err := range client.WebhookEventPages(ctx, cursor) {
		if err != nil {
			return fmt.Errorf("webhookEventsAfter: %w", err)
		}
	}
	fmt.Println("op webhookEventsAfter ok")
	if settledEventID == "" {
		return errors.New("no settled event listed for the attempt")
	}

	// 11. Send the settled webhook again, then recover the last few minutes (the receiver deduplicates both).
	// Redeliver only what has arrived: an event still being delivered is refused (409 webhook_delivery_pending).
	var verified *intent.WebhookEvent
	select {
	case verified = <-settled:
	case <-ctx.Done():
		return fmt.Errorf("no verified settled webhook for %s: %w", attemptID, ctx.Err())
	}
	// Until the service has recorded that delivery (our 2xx), the event still counts as queued: wait a moment.
	for try := 1; ; try++ {
		_, err := client.WebhookRedeliver(ctx, settledEventID)
		var pending *intent.APIError
		if err == nil {
			break
		}
		if !errors.As(err, &pending) || pending.Code != intent.CodeWebhookDeliveryPending || try == 50 {
			return fmt.Errorf("webhookRedeliver: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Println("op webhookRedeliver ok")
	now := time.Now().UTC()
	recovered, err := client.WebhookRecover(ctx, intent.WebhookRecoverRequest{
		From: now.Add(-5 * time.Minute).Format(time.RFC3339), To: now.Add(time.Minute).Format(time.RFC3339)})
	if err != nil {
		return fmt.Errorf("webhookRecover: %w", err)
	}
	fmt.Printf("  %d events recovered\n", len(recovered.Recovered))
	fmt.Println("op webhookRecover ok")

	// 12. Each error family once, on purpose, caught as the SDK's typed error.
	var apiErr *intent.APIError
	_, err = client.Quote(ctx, intent.QuoteRequest{WalletAddress: "not-an-address", Sources: []intent.SourceInput{}})
	if !errors.As(err, &apiErr) || !errors.Is(err, intent.KindValidation) {
		return fmt.Errorf("a bad quote gave %v", err)
	}
	fmt.Println("error validation", apiErr.Code)
	_, err = client.Prepare(ctx, "is_00000000000000000000000000000000", intent.PrepareRequest{})
	if !errors.As(err, &apiErr) || !errors.Is(err, intent.KindNotFound) {
		return fmt.Errorf("an unknown session gave %v", err)
	}
	fmt.Println("error not_found", apiErr.Code)
	wrong, _ := intent.NewClient(intent.Options{BaseURL: serviceURL, PartnerID: partnerID,
		Secret: "not-the-secret", AuthVersion: authVersion})
	_, err = wrong.Ping(ctx)
	if !errors.As(err, &apiErr) || !errors.Is(err, intent.KindAuth) {
		return fmt.Errorf("a wrong secret gave %v", err)
	}
	fmt.Println("error auth", apiErr.Code)

	// 13. Done: our receiver verified the settled webhook of the attempt (before the redelivery above).
	fmt.Printf("settled %s webhook %s verified\n", attemptID, verified.EventID)
	return nil
}
