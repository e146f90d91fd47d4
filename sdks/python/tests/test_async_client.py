"""AsyncClient sends like Client: the same key and bytes on each try, fresh signatures, typed answers and errors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import DROP, Reply, ScriptedServer  # noqa: E402
from _support import load  # noqa: E402
from intent_partner import AsyncClient, ConflictError, FileIdempotencyStore, NoResponseError  # noqa: E402

ERRORS = {case["code"]: case for case in load("errors")["cases"]}
BODY = {"walletAddress": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "sources": []}
OK = {"apiVersion": "1", "intentSessionId": "is_1", "quoteStatus": "ready"}


class Sleeps:
    def __init__(self) -> None:
        self.calls: List[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.mark.anyio
async def test_async_retries_keep_key_and_bytes() -> None:
    sleeps = Sleeps()
    script = [DROP, Reply(503, ERRORS["dependency_unavailable"]["example"], {"retry-after": "3"}), Reply(200, OK)]
    with ScriptedServer(script) as server:
        async with AsyncClient(server.url, "my-partner", "dev-only-my-secret", sleep=sleeps) as c:
            assert await c.quote(BODY) == OK
    assert len({s.headers["idempotency-key"] for s in server.seen}) == 1
    assert len({s.body for s in server.seen}) == 1
    assert len({s.headers["x-nonce"] for s in server.seen}) == 3
    assert all(s.signature_ok for s in server.seen)
    assert sleeps.calls[1] == 3.0


@pytest.mark.anyio
async def test_async_key_reused_is_final_and_typed() -> None:
    with ScriptedServer([Reply(422, ERRORS["idempotency_key_reused"]["example"]), Reply(200, OK)]) as server:
        async with AsyncClient(server.url, "my-partner", "dev-only-my-secret", sleep=Sleeps()) as c:
            with pytest.raises(ConflictError) as caught:
                await c.quote(BODY)
    assert caught.value.code == "idempotency_key_reused" and len(server.seen) == 1


@pytest.mark.anyio
async def test_async_restart_resends_the_stored_key(tmp_path: Path) -> None:
    path = tmp_path / "idempotency"
    with ScriptedServer([DROP]) as server:
        async with AsyncClient(
            server.url, "my-partner", "dev-only-my-secret", max_retries=0, idempotency_store=FileIdempotencyStore(path)
        ) as c:
            with pytest.raises(NoResponseError):
                await c.quote(BODY, operation_id="quote-1")
        first = server.seen[0]
    with ScriptedServer([Reply(200, OK)]) as server:
        async with AsyncClient(
            server.url, "my-partner", "dev-only-my-secret", idempotency_store=FileIdempotencyStore(path)
        ) as c:
            await c.quote(BODY, operation_id="quote-1")
    assert server.seen[0].headers["idempotency-key"] == first.headers["idempotency-key"]
    assert server.seen[0].body == first.body
