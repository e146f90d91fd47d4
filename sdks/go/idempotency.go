package intent

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// IdempotencyRecord is what a POST operation sends on every try: one Idempotency-Key and the exact body bytes.
type IdempotencyRecord struct {
	Key string `json:"key"`
	// Body is the exact JSON text sent; its bytes are what is hashed and signed.
	Body string `json:"body"`
}

// IdempotencyStore is where the client persists a POST's key and body before sending, so that a retry, even from
// another process after a crash or a timeout, resends the same bytes under the same key. Records are keyed by
// operation id (see WithOperationID).
type IdempotencyStore interface {
	Get(ctx context.Context, operationID string) (rec IdempotencyRecord, ok bool, err error)
	Put(ctx context.Context, operationID string, rec IdempotencyRecord) error
	Delete(ctx context.Context, operationID string) error
}

// MemoryIdempotencyStore keeps records for the life of the process (safe for concurrent use).
type MemoryIdempotencyStore struct {
	mu      sync.Mutex
	records map[string]IdempotencyRecord
}

// NewMemoryIdempotencyStore returns an empty in-memory store.
func NewMemoryIdempotencyStore() *MemoryIdempotencyStore {
	return &MemoryIdempotencyStore{records: map[string]IdempotencyRecord{}}
}

func (s *MemoryIdempotencyStore) Get(_ context.Context, id string) (IdempotencyRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[id]
	return r, ok, nil
}

func (s *MemoryIdempotencyStore) Put(_ context.Context, id string, r IdempotencyRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[id] = r
	return nil
}

func (s *MemoryIdempotencyStore) Delete(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records, id)
	return nil
}

// FileIdempotencyStore keeps records in one JSON file (the TypeScript SDK's format: {"version":1,"operations":
// {id: {key, body}}}), so they survive the process. Every change is written to a temporary file in the same
// directory, synced and renamed over the old one: a crash leaves the old or the new file, never a torn one. Changes
// within one store are serialised; two processes writing at once may lose one record (which only costs a fresh
// key later). A corrupt file is an error, never read as empty (that would hand out fresh keys for old operations).
type FileIdempotencyStore struct {
	Path string
	mu   sync.Mutex
}

// NewFileIdempotencyStore returns a store backed by path (created, with its directory, on the first write).
func NewFileIdempotencyStore(path string) *FileIdempotencyStore {
	return &FileIdempotencyStore{Path: path}
}

type storeFile struct {
	Version    int                          `json:"version"`
	Operations map[string]IdempotencyRecord `json:"operations"`
}

func (s *FileIdempotencyStore) read() (storeFile, error) {
	f := storeFile{Version: 1, Operations: map[string]IdempotencyRecord{}}
	raw, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("intent: idempotency store %s is corrupt: %w", s.Path, err)
	}
	if f.Operations == nil {
		f.Operations = map[string]IdempotencyRecord{}
	}
	f.Version = 1
	return f, nil
}

func (s *FileIdempotencyStore) write(f storeFile) error {
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(s.Path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(append(raw, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o600)
	}
	if err == nil {
		err = os.Rename(name, s.Path)
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}

func (s *FileIdempotencyStore) Get(_ context.Context, id string) (IdempotencyRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return IdempotencyRecord{}, false, err
	}
	r, ok := f.Operations[id]
	return r, ok, nil
}

func (s *FileIdempotencyStore) update(change func(map[string]IdempotencyRecord)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return err
	}
	change(f.Operations)
	return s.write(f)
}

func (s *FileIdempotencyStore) Put(_ context.Context, id string, r IdempotencyRecord) error {
	return s.update(func(m map[string]IdempotencyRecord) { m[id] = r })
}

func (s *FileIdempotencyStore) Delete(_ context.Context, id string) error {
	return s.update(func(m map[string]IdempotencyRecord) { delete(m, id) })
}

// IdempotencyConflictError is returned before anything is sent when an operation id already has a record with
// other body bytes (Field "body") or another key (Field "key"): the same operation must resend the same request.
// Use a new operation id for a new request.
type IdempotencyConflictError struct {
	OperationID string
	Field       string
}

func (e *IdempotencyConflictError) Error() string {
	return fmt.Sprintf("intent: operation %q was stored with another %s; a new request needs a new operation id", e.OperationID, e.Field)
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
