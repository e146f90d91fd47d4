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
	"syscall"
	"time"
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
// within one store are serialised, and across processes each change reads and writes the file holding a lock file
// beside it (Path + ".lock", created exclusively; the TypeScript SDK takes the same lock), so no writer overwrites a
// record another process has just put: a lost record would give a retried request a fresh key, and the service would
// take it for a new request. A lock left by a process that died is taken over (its process is gone on this host, or
// the lock is older than StaleLock); one held longer than LockTimeout fails the change with an error naming it. A
// corrupt file is an error, never read as empty (that would hand out fresh keys for old operations).
type FileIdempotencyStore struct {
	Path string
	// LockTimeout is how long a change waits for another process's lock (10 s when zero).
	LockTimeout time.Duration
	// StaleLock is the age after which a lock is taken over whoever holds it (30 s when zero).
	StaleLock time.Duration
	mu        sync.Mutex
}

// NewFileIdempotencyStore returns a store backed by path (created, with its directory, on the first write).
func NewFileIdempotencyStore(path string) *FileIdempotencyStore {
	return &FileIdempotencyStore{Path: path}
}

type lockOwner struct {
	Pid   int    `json:"pid"`
	Host  string `json:"host"`
	Token string `json:"token"`
}

// locked runs run holding the store's lock file.
func (s *FileIdempotencyStore) locked(run func() error) error {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	lockPath := s.Path + ".lock"
	host, _ := os.Hostname()
	owner, _ := json.Marshal(lockOwner{Pid: os.Getpid(), Host: host, Token: newUUID()})
	timeout := s.LockTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	giveUpAt := time.Now().Add(timeout)
	for {
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, err = f.Write(owner)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				_ = os.Remove(lockPath)
				return err
			}
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		held, age, err := readLock(lockPath)
		if err != nil {
			return err
		}
		if held != nil && s.stale(held, age, host) {
			// Taken over only if it is still the lock judged stale (another process may have taken it over first).
			if again, _, _ := readLock(lockPath); again != nil && string(again) == string(held) {
				_ = os.Remove(lockPath)
			}
			continue
		}
		if time.Now().After(giveUpAt) {
			return fmt.Errorf("intent: idempotency store %s stayed locked for %s by %s; remove %s if no process is writing it", s.Path, timeout, held, lockPath)
		}
		time.Sleep(time.Duration(2+time.Now().UnixNano()%8) * time.Millisecond)
	}
	defer func() {
		if again, _, _ := readLock(lockPath); string(again) == string(owner) {
			_ = os.Remove(lockPath)
		}
	}()
	return run()
}

func (s *FileIdempotencyStore) stale(held []byte, age time.Duration, host string) bool {
	limit := s.StaleLock
	if limit <= 0 {
		limit = 30 * time.Second
	}
	if age > limit {
		return true
	}
	var o lockOwner
	// Created, not yet written (or torn by a crash between the two): only its age can tell.
	if json.Unmarshal(held, &o) != nil || o.Host != host || o.Pid <= 0 {
		return false
	}
	return processGone(o.Pid)
}

// processGone reports whether no process has pid on this host (signal 0 checks without sending anything).
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH)
}

// readLock returns the lock file's bytes and age, or nil when there is none (released meanwhile).
func readLock(path string) ([]byte, time.Duration, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return raw, time.Since(info.ModTime()), nil
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
	return s.locked(func() error {
		f, err := s.read()
		if err != nil {
			return err
		}
		change(f.Operations)
		return s.write(f)
	})
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
