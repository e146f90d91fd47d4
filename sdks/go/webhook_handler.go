package intent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ProcessedEventStore remembers the eventIds already processed, so a retried or redelivered webhook is processed
// once. Use a durable one (FileProcessedEventStore, your database): an eventId is recorded before the 2xx.
type ProcessedEventStore interface {
	Has(ctx context.Context, eventID string) (bool, error)
	Add(ctx context.Context, eventID string) error
}

// MemoryProcessedEventStore is a ProcessedEventStore for tests and demos (it forgets on restart).
type MemoryProcessedEventStore struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (s *MemoryProcessedEventStore) Has(_ context.Context, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[id], nil
}

func (s *MemoryProcessedEventStore) Add(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[id] = true
	return nil
}

// FileProcessedEventStore appends one eventId per line to a file, synced before Add returns.
type FileProcessedEventStore struct {
	Path string
	mu   sync.Mutex
}

func (s *FileProcessedEventStore) Has(_ context.Context, id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.Open(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == id {
			return true, nil
		}
	}
	return false, sc.Err()
}

func (s *FileProcessedEventStore) Add(_ context.Context, id string) error {
	if strings.ContainsAny(id, "\r\n") {
		return fmt.Errorf("intent: eventId %q has a line break", id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(s.Path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(id + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WebhookHandlerOptions configure WebhookHandler.
type WebhookHandlerOptions struct {
	PartnerID string
	// Secrets: the partner secret, or during a rotation the new and the old one.
	Secrets []string
	// Processed deduplicates by eventId; a MemoryProcessedEventStore when nil (use a durable one in production).
	Processed ProcessedEventStore
	// Now is the receiver's clock (time.Now when nil); ToleranceMs as in WebhookOptions.
	Now         func() time.Time
	ToleranceMs int64
	// OnError is told about every failure answered with 500 (the sender only sees the status).
	OnError func(error)
}

// WebhookHandler is an http.Handler applying the receiver rules of docs/webhooks.md: it verifies the raw bytes
// (401 {"error": reason} when that fails: a forgery, a stale or foreign delivery), answers 200 {"ok":true,
// "duplicate":true} for an eventId already processed, else runs process, records the eventId and only then
// answers 200. When process (or the store) fails it answers 500 so the service redelivers: keep process
// idempotent. Deliveries of one eventId are processed one at a time. Mount it where nothing read the body.
func WebhookHandler(opts WebhookHandlerOptions, process func(ctx context.Context, ev *WebhookEvent) error) http.Handler {
	store := opts.Processed
	if store == nil {
		store = &MemoryProcessedEventStore{}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	var mu sync.Mutex
	inFlight := map[string]chan struct{}{}
	once := func(ctx context.Context, ev *WebhookEvent) (bool, error) {
		for {
			mu.Lock()
			ch, busy := inFlight[ev.EventID]
			if !busy {
				ch = make(chan struct{})
				inFlight[ev.EventID] = ch
				mu.Unlock()
				break
			}
			mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return false, ctx.Err()
			}
		}
		defer func() {
			mu.Lock()
			close(inFlight[ev.EventID])
			delete(inFlight, ev.EventID)
			mu.Unlock()
		}()
		seen, err := store.Has(ctx, ev.EventID)
		if err != nil || seen {
			return seen, err
		}
		if err := process(ctx, ev); err != nil {
			return false, err
		}
		return false, store.Add(ctx, ev.EventID)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"error": "method_not_allowed"})
			return
		}
		ev, body, err := VerifyWebhookRequest(r, WebhookOptions{
			PartnerID: opts.PartnerID, Secrets: opts.Secrets, NowMs: now().UnixMilli(), ToleranceMs: opts.ToleranceMs,
		})
		var werr *WebhookError
		switch {
		case len(body) > MaxWebhookBody:
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "body_too_large"})
			return
		case errors.As(err, &werr):
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": string(werr.Reason)})
			return
		case err != nil:
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body_unreadable"})
			return
		}
		duplicate, err := once(r.Context(), ev)
		if err != nil {
			if opts.OnError != nil {
				opts.OnError(err)
			}
			writeJSON(w, http.StatusInternalServerError, map[string]any{"error": "processing_failed"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "duplicate": duplicate})
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
