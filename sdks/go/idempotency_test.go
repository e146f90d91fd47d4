package intent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFileStoreWriterProcess is not a test of its own: TestFileStoreManyProcesses runs this test binary once per
// writer with INTENT_STORE_WRITER set, and this puts that writer's records (deleting every third again).
func TestFileStoreWriterProcess(t *testing.T) {
	spec := os.Getenv("INTENT_STORE_WRITER")
	if spec == "" {
		t.Skip("run as a writer process by TestFileStoreManyProcesses")
	}
	parts := strings.SplitN(spec, "|", 3)
	count, _ := strconv.Atoi(parts[2])
	store := NewFileIdempotencyStore(parts[0])
	ctx := context.Background()
	for i := 0; i < count; i++ {
		id := fmt.Sprintf("%s-%d", parts[1], i)
		if err := store.Put(ctx, id, IdempotencyRecord{Key: "key-" + id, Body: fmt.Sprintf(`{"i":%d}`, i)}); err != nil {
			t.Fatal(err)
		}
		if i%3 == 2 {
			if err := store.Delete(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestFileStoreManyProcesses: several processes writing one file at once keep every record (a lost record would give
// a retried request a fresh key, and the service would take it for a new request).
func TestFileStoreManyProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	const writers, count = 6, 30
	cmds := make([]*exec.Cmd, writers)
	for w := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestFileStoreWriterProcess$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("INTENT_STORE_WRITER=%s|w%d|%d", path, w, count))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[w] = cmd
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v", w, err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f storeFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	want := map[string]IdempotencyRecord{}
	for w := 0; w < writers; w++ {
		for i := 0; i < count; i++ {
			if i%3 != 2 {
				id := fmt.Sprintf("w%d-%d", w, i)
				want[id] = IdempotencyRecord{Key: "key-" + id, Body: fmt.Sprintf(`{"i":%d}`, i)}
			}
		}
	}
	if !reflect.DeepEqual(f.Operations, want) {
		t.Fatalf("kept %d records, want %d", len(f.Operations), len(want))
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("left %d files beside the store", len(entries)-1)
	}
}

// TestFileStoreLock: a lock left by a process that died is taken over; one held by a live process is waited for,
// then the change fails naming the lock file; one older than StaleLock is taken over whatever it says.
func TestFileStoreLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	host, _ := os.Hostname()
	ctx := context.Background()
	write := func(pid int) {
		raw, _ := json.Marshal(map[string]any{"pid": pid, "host": host, "token": "t"})
		if err := os.WriteFile(path+".lock", raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(1<<22 + 1) // beyond the kernel's default pid_max: no such process
	store := NewFileIdempotencyStore(path)
	if err := store.Put(ctx, "a", IdempotencyRecord{Key: "k", Body: "{}"}); err != nil {
		t.Fatal(err)
	}
	write(os.Getpid())
	store.LockTimeout = 300 * time.Millisecond
	err := store.Put(ctx, "b", IdempotencyRecord{Key: "k", Body: "{}"})
	if err == nil || !strings.Contains(err.Error(), "store.json.lock") {
		t.Fatalf("want a lock error naming the lock file, got %v", err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(path+".lock", old, old); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, "b", IdempotencyRecord{Key: "k", Body: "{}"}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := store.Get(ctx, "b"); !ok {
		t.Fatal("b was not stored")
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("the lock was left behind: %v", err)
	}
}
