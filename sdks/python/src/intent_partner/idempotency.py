"""Where the client persists each POST's Idempotency-Key and exact body BEFORE sending it (spec, Idempotency rule 1),
so that a retry, even from another process after a crash or a time-out, resends the same bytes under the same key.

Records are named by an ``operation_id``: pass your own (e.g. ``f"submitted:{attempt_id}"``) to make an operation
resumable; calling again with the same id and body resends the stored key and bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Protocol, Union


@dataclass(frozen=True)
class IdempotencyRecord:
    """What a POST operation sends on every try: one key and the exact JSON text (its UTF-8 bytes are signed)."""

    key: str
    body: str


class IdempotencyStore(Protocol):
    """Persists records by operation id. Implement it on your database to share keys between processes."""

    def get(self, operation_id: str) -> Optional[IdempotencyRecord]: ...

    def put(self, operation_id: str, record: IdempotencyRecord) -> None: ...

    def delete(self, operation_id: str) -> None: ...


class MemoryIdempotencyStore:
    """Records in this process only: retries within one client survive, a restart does not."""

    def __init__(self) -> None:
        self._records: Dict[str, IdempotencyRecord] = {}
        self._lock = threading.Lock()

    def get(self, operation_id: str) -> Optional[IdempotencyRecord]:
        with self._lock:
            return self._records.get(operation_id)

    def put(self, operation_id: str, record: IdempotencyRecord) -> None:
        with self._lock:
            self._records[operation_id] = record

    def delete(self, operation_id: str) -> None:
        with self._lock:
            self._records.pop(operation_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)


class FileIdempotencyStore:
    """One JSON file per operation in a directory (``<sha256 of the operation id>.json`` holding ``operationId``,
    ``key`` and ``body``), so records survive the process and several processes can share the directory.

    Each record is written to a temporary file in the same directory, flushed to disk (fsync) and renamed over its
    final name, so a crash leaves the old record or the new one, never a torn one; writers of different operations
    never touch the same file. A corrupt record raises rather than being read as absent (that would hand out a
    fresh key for an old operation). The files hold request bodies: they are created readable by their owner only.
    """

    def __init__(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        self.directory = Path(directory)

    def _path(self, operation_id: str) -> Path:
        digest = hashlib.sha256(operation_id.encode("utf-8")).hexdigest()
        return self.directory / f"{digest}.json"

    def get(self, operation_id: str) -> Optional[IdempotencyRecord]:
        path = self._path(operation_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        entry = json.loads(text)
        if not isinstance(entry, dict) or entry.get("operationId") != operation_id:
            raise ValueError(f"{path} is not the idempotency record of {operation_id!r}")
        key, body = entry.get("key"), entry.get("body")
        if not isinstance(key, str) or not isinstance(body, str):
            raise ValueError(f"{path} is not an idempotency record")
        return IdempotencyRecord(key=key, body=body)

    def put(self, operation_id: str, record: IdempotencyRecord) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self._path(operation_id)
        fd, temp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=str(self.directory))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"operationId": operation_id, "key": record.key, "body": record.body}, f, ensure_ascii=False)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        _fsync_directory(self.directory)

    def delete(self, operation_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self._path(operation_id).unlink()


def _fsync_directory(directory: Path) -> None:
    """Makes a rename durable (POSIX); a no-op where directories cannot be opened (Windows)."""
    try:
        fd = os.open(str(directory), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
