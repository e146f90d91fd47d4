"""The client's tries on a scripted loopback server: same Idempotency-Key and bytes on each try, a fresh signature
(timestamp and nonce) each time, Retry-After honoured, no retry of other 4xx, the stored key reused after a restart.
Codes, statuses and Retry-After values come from sdks/vectors (idempotency.json, errors.json)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import DROP, Reply, ScriptedServer  # noqa: E402
from _support import load  # noqa: E402
from intent_partner import (  # noqa: E402
    AuthenticationError,
    Client,
    ConflictError,
    FileIdempotencyStore,
    IdempotencyConflictError,
    MemoryIdempotencyStore,
    NoResponseError,
    NotFoundError,
    RateLimitedError,
    RetryPolicy,
    ServerError,
    ValidationError,
    retry_delay,
)
from intent_partner._transport import Answer  # noqa: E402

IDEMPOTENCY = load("idempotency")
ERRORS = {case["code"]: case for case in load("errors")["cases"]}
QUOTE_BODY: Dict[str, Any] = {
    "walletAddress": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "sources": [{"chainId": 1, "address": "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35", "amount": "5000000"}],
    "target": {"chainId": 8453, "address": "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35"},
    "note": "unicode stays as sent: é",
}
QUOTE_OK = {"apiVersion": "1", "intentSessionId": "is_1", "quoteStatus": "ready"}


def scenario(name: str) -> Dict[str, Any]:
    return next(s for s in IDEMPOTENCY["scenarios"] if s["name"] == name)["expected"]


def refusal(name: str) -> Reply:
    """The answer the service gives in an idempotency.json scenario (the body from errors.json)."""
    expected = scenario(name)
    headers = {}
    if expected.get("retryAfterSeconds") is not None:
        headers["retry-after"] = str(expected["retryAfterSeconds"])
    return Reply(expected["status"], ERRORS[expected["code"]]["example"], headers)


def error_reply(code: str, **headers: str) -> Reply:
    case = ERRORS[code]
    return Reply(case["status"], case["example"], dict(headers))


class Sleeps:
    def __init__(self) -> None:
        self.calls: List[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def client(server: ScriptedServer, **options: Any) -> Client:
    options.setdefault("retry_max_delay", 30.0)
    return Client(server.url, "my-partner", "dev-only-my-secret", **options)


def test_a_retry_sends_the_same_key_and_bytes_with_a_fresh_signature() -> None:
    script = [DROP, error_reply("internal_error"), refusal("same-body-in-progress"), Reply(200, QUOTE_OK)]
    sleeps = Sleeps()
    with ScriptedServer(script) as server, client(server, sleep=sleeps) as c:
        assert c.quote(QUOTE_BODY) == QUOTE_OK
    seen = server.seen
    assert len(seen) == 4
    assert len({s.headers["idempotency-key"] for s in seen}) == 1
    assert len({s.body for s in seen}) == 1
    assert json.loads(seen[0].body.decode("utf-8")) == QUOTE_BODY
    assert "é".encode("utf-8") in seen[0].body
    assert len({s.headers["x-nonce"] for s in seen}) == 4  # a fresh nonce per try
    assert all(s.signature_ok for s in seen)  # each try signed over the exact bytes sent
    assert all(s.path == "/api/external/intents/quote" for s in seen)
    # The third wait is the in-progress answer's Retry-After (idempotency.json: retryAfterSeconds).
    assert sleeps.calls[2] == scenario("same-body-in-progress")["retryAfterSeconds"]
    assert sleeps.calls[0] <= 0.2 and sleeps.calls[1] <= 0.4  # jittered backoff otherwise


def test_retry_after_is_honoured_in_real_time() -> None:
    script = [
        error_reply("rate_limited", **{"retry-after": "1"}),
        Reply(200, {"apiVersion": "1", "ok": True, "partnerId": "my-partner"}),
    ]
    with ScriptedServer(script) as server, client(server) as c:
        started = time.monotonic()
        assert c.ping()["partnerId"] == "my-partner"
        waited = time.monotonic() - started
    assert len(server.seen) == 2
    assert waited >= 1.0
    assert "idempotency-key" not in server.seen[0].headers  # a GET never carries a key
    assert server.seen[0].headers["x-nonce"] != server.seen[1].headers["x-nonce"]


@pytest.mark.parametrize(
    "reply,error_class,code",
    [
        (refusal("other-body-after-completion"), ConflictError, "idempotency_key_reused"),
        (error_reply("invalid_wallet_address"), ValidationError, "invalid_wallet_address"),
        (error_reply("external_auth_signature_invalid"), AuthenticationError, "external_auth_signature_invalid"),
        (error_reply("external_auth_nonce_conflict"), AuthenticationError, "external_auth_nonce_conflict"),
        (error_reply("intent_session_not_found"), NotFoundError, "intent_session_not_found"),
        (error_reply("not_implemented"), ServerError, "not_implemented"),  # 501: a retry cannot implement it
    ],
)
def test_other_4xx_and_501_are_never_retried(reply: Reply, error_class: type, code: str) -> None:
    sleeps = Sleeps()
    with ScriptedServer([reply, Reply(200, QUOTE_OK)]) as server, client(server, sleep=sleeps) as c:
        with pytest.raises(error_class) as caught:
            c.quote(QUOTE_BODY)
    assert caught.value.code == code
    assert caught.value.status == reply.status
    assert len(server.seen) == 1 and sleeps.calls == []


def test_retries_are_bounded_and_the_last_answer_raises() -> None:
    sleeps = Sleeps()
    script = [error_reply("rate_limited", **{"retry-after": "2"})] * 3
    with ScriptedServer(script) as server, client(server, max_retries=2, sleep=sleeps) as c:
        with pytest.raises(RateLimitedError) as caught:
            c.ping()
    assert len(server.seen) == 3 and sleeps.calls == [2.0, 2.0]
    assert caught.value.retry_after_seconds == 2.0


def test_no_answer_at_all_raises_the_sdks_own_error_with_the_operation_to_resume() -> None:
    store = MemoryIdempotencyStore()
    with ScriptedServer([DROP, DROP, DROP]) as server:
        with client(server, max_retries=2, sleep=Sleeps(), idempotency_store=store) as c:
            with pytest.raises(NoResponseError) as caught:
                c.quote(QUOTE_BODY)
    error = caught.value
    assert error.tries == 3 and error.method == "POST" and error.path == "/api/external/intents/quote"
    assert error.idempotency_key == server.seen[0].headers["idempotency-key"]
    # The record stays so the operation can be resumed with the same key and bytes.
    record = store.get(error.operation_id or "")
    assert record is not None and record.key == error.idempotency_key


def test_connection_refused_is_a_missing_answer_too() -> None:
    with ScriptedServer([]) as server:
        url = server.url
    with Client(url, "my-partner", "s", max_retries=1, sleep=Sleeps()) as c:
        with pytest.raises(NoResponseError):
            c.ping()


def test_the_stored_key_is_reused_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    operation = "submitted:at_1"
    body = {"chainResults": [{"chainId": 1, "txHashes": ["0x" + "ab" * 32]}]}
    # Process 1: the request goes out, no answer comes back (every try dropped), the process "dies".
    with ScriptedServer([DROP, DROP]) as server:
        with client(server, max_retries=1, sleep=Sleeps(), idempotency_store=FileIdempotencyStore(path)) as first:
            with pytest.raises(NoResponseError):
                first.submitted("at_1", body, operation_id=operation)
        first_key = server.seen[0].headers["idempotency-key"]
        first_bytes = server.seen[0].body
    (record,) = [json.loads(f.read_text()) for f in path.glob("*.json")]
    assert record == {"operationId": operation, "key": first_key, "body": first_bytes.decode("utf-8")}
    # Process 2: a new client on the same file resends the same key and bytes, with a fresh signature.
    snapshot = {"apiVersion": "1", "attemptId": "at_1", "status": "wallet_submitted"}
    with ScriptedServer([Reply(200, snapshot)]) as server:
        with client(server, idempotency_store=FileIdempotencyStore(path)) as second:
            assert second.submitted("at_1", body, operation_id=operation) == snapshot
    assert server.seen[0].headers["idempotency-key"] == first_key
    assert server.seen[0].body == first_bytes
    assert server.seen[0].signature_ok
    # A named operation keeps its record (a replay later answers the same resource); a new body is refused.
    with pytest.raises(IdempotencyConflictError):
        with client(server, idempotency_store=FileIdempotencyStore(path)) as third:
            third.submitted("at_1", {"chainResults": []}, operation_id=operation)


def test_the_key_is_persisted_before_anything_is_sent(tmp_path: Path) -> None:
    path = tmp_path / "idempotency"

    def handler(seen: Any) -> Reply:
        stored = FileIdempotencyStore(path).get("op-1")
        assert stored is not None
        assert (stored.key, stored.body) == (seen.headers["idempotency-key"], seen.body.decode("utf-8"))
        return Reply(200, QUOTE_OK)

    with ScriptedServer(handler=handler) as server, client(server, idempotency_store=FileIdempotencyStore(path)) as c:
        c.quote(QUOTE_BODY, operation_id="op-1")
    assert len(server.seen) == 1


def test_the_callers_own_key_is_sent_and_unnamed_operations_leave_no_record() -> None:
    store = MemoryIdempotencyStore()
    with ScriptedServer([Reply(200, QUOTE_OK)]) as server, client(server, idempotency_store=store) as c:
        c.quote(QUOTE_BODY, idempotency_key="my-own-key-1")
    assert server.seen[0].headers["idempotency-key"] == "my-own-key-1"
    assert len(store) == 0


def test_v1_signing_and_a_deployment_prefix() -> None:
    from intent_partner import PartnerCredentials

    credentials = PartnerCredentials("v1-partner", "dev-only-v1-secret", 1)
    with ScriptedServer([Reply(200, QUOTE_OK)], credentials=credentials) as server:
        with Client(server.url + "/intents/", "v1-partner", "dev-only-v1-secret", auth_version=1) as c:
            c.quote(QUOTE_BODY)
    seen = server.seen[0]
    assert seen.path == "/intents/api/external/intents/quote"
    assert seen.signature_ok and "x-nonce" not in seen.headers


def test_the_paths_vectors_deployment_prefix_is_signed_as_part_of_the_path() -> None:
    case = next(c for c in load("paths")["cases"] if "prefix" in c["description"].lower())
    assert case["ok"]
    prefix = case["input"].split("/api/external")[0]
    with ScriptedServer([Reply(200, {"apiVersion": "1", "ok": True, "partnerId": "my-partner"})]) as server:
        with Client(server.url + prefix, "my-partner", "dev-only-my-secret") as c:
            c.ping()
    assert server.seen[0].path == case["canonical"]
    assert server.seen[0].signature_ok


def test_retry_delay_policy() -> None:
    policy = RetryPolicy(max_retries=3, base_delay=0.1, max_delay=2.0)

    def answer(status: int, body: Any = None, headers: Any = None) -> Answer:
        return Answer(status, headers or {}, json.dumps(body).encode() if body else b"")

    def full() -> float:
        return 1.0

    assert [retry_delay(None, i, RetryPolicy(20, 0.1, 2.0), 0, full) for i in (0, 1, 2, 3, 10)] == pytest.approx(
        [0.1, 0.2, 0.4, 0.8, 2.0]
    )
    assert retry_delay(None, 2, policy, 0, lambda: 0.0) == pytest.approx(0.2)  # jitter: half the step at least
    assert retry_delay(None, 3, policy, 0) is None  # bounded
    for status in (500, 502, 503, 504, 429):
        assert retry_delay(answer(status), 0, policy, 0) is not None
    for status in (501, 400, 401, 403, 404, 422, 200, 307):
        assert retry_delay(answer(status), 0, policy, 0) is None
    assert retry_delay(answer(409, {"code": "idempotency_request_in_progress"}), 0, policy, 0) is not None
    assert retry_delay(answer(409, {"code": "external_auth_nonce_conflict"}), 0, policy, 0) is None
    assert retry_delay(answer(429, None, {"retry-after": "1"}), 0, policy, 0, full) == 1.0
    assert retry_delay(answer(429, None, {"retry-after": "3600"}), 0, policy, 0, full) == 2.0  # capped
    date = "Thu, 01 Jan 2026 00:00:01 GMT"
    assert retry_delay(answer(503, None, {"retry-after": date}), 0, policy, 1767225600.0, full) == 1.0
