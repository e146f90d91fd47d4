"""The idempotency stores on real files, and the sandbox module's message when its extra is missing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _support import SRC  # noqa: E402
from intent_partner import FileIdempotencyStore, IdempotencyRecord, MemoryIdempotencyStore  # noqa: E402


@pytest.mark.parametrize("kind", ["memory", "file"])
def test_get_put_delete(kind: str, tmp_path: Path) -> None:
    store = MemoryIdempotencyStore() if kind == "memory" else FileIdempotencyStore(tmp_path / "keys")
    assert store.get("op") is None
    store.put("op", IdempotencyRecord("k1", '{"a":"é"}'))
    assert store.get("op") == IdempotencyRecord("k1", '{"a":"é"}')
    store.put("op", IdempotencyRecord("k2", "{}"))
    assert store.get("op") == IdempotencyRecord("k2", "{}")
    store.delete("op")
    store.delete("op")  # deleting twice is fine
    assert store.get("op") is None


def test_file_store_survives_a_new_instance_and_keeps_many_writers_apart(tmp_path: Path) -> None:
    directory = tmp_path / "keys"

    def write(n: int) -> None:
        FileIdempotencyStore(directory).put(f"submitted:at_{n}", IdempotencyRecord(f"key-{n}", f'{{"n":{n}}}'))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reopened = FileIdempotencyStore(directory)
    assert [reopened.get(f"submitted:at_{n}") for n in range(20)] == [
        IdempotencyRecord(f"key-{n}", f'{{"n":{n}}}') for n in range(20)
    ]
    assert not [p for p in directory.iterdir() if p.suffix == ".tmp"]  # no temporary file left behind
    if os.name == "posix":
        assert all((p.stat().st_mode & 0o077) == 0 for p in directory.iterdir())  # owner only: bodies inside


def test_a_corrupt_record_raises_instead_of_handing_out_a_new_key(tmp_path: Path) -> None:
    store = FileIdempotencyStore(tmp_path)
    store.put("op", IdempotencyRecord("k", "{}"))
    (record_file,) = list(tmp_path.glob("*.json"))
    record_file.write_text('{"operationId": "op", "key": ')
    with pytest.raises(ValueError):
        store.get("op")


def test_the_sandbox_module_says_how_to_install_its_extra() -> None:
    code = (
        "import sys; sys.modules['eth_account'] = None\n"
        "try:\n    import intent_partner.sandbox\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(SRC)}
    )
    assert "pip install 'intent-partner[sandbox]'" in out.stdout, out.stderr
