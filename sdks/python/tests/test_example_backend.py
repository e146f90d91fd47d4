"""examples/partner-backend-python on loopback against a scripted service: checkout, verified and deduplicated
webhooks reflected in GET /orders, a forged webhook refused with 401 signature_invalid, a refusal passed on."""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, List, Tuple

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import Reply, ScriptedServer, Seen  # noqa: E402
from _support import PACKAGE_ROOT, load  # noqa: E402
from intent_partner import Client, sign_webhook  # noqa: E402

EXAMPLE = PACKAGE_ROOT.parent.parent / "examples" / "partner-backend-python" / "partner_backend.py"
spec = importlib.util.spec_from_file_location("partner_backend", EXAMPLE)
assert spec and spec.loader
partner_backend = importlib.util.module_from_spec(spec)
sys.modules["partner_backend"] = partner_backend
spec.loader.exec_module(partner_backend)

ERRORS = {case["code"]: case for case in load("errors")["cases"]}
ATTEMPT = "at_1"


def service(seen: Seen) -> Reply:
    if seen.path == "/api/external/intents/quote":
        if b"bad" in seen.body:
            return Reply(400, ERRORS["invalid_wallet_address"]["example"])
        return Reply(200, {"apiVersion": "1", "intentSessionId": "is_1", "quoteStatus": "ready"})
    if seen.path == "/api/external/intents/is_1/prepare":
        return Reply(200, {"attemptId": ATTEMPT, "expiresAt": "2026-01-01T00:00:00Z", "chainActions": []})
    if seen.path == f"/api/external/attempts/{ATTEMPT}/submitted":
        body = json.loads(seen.body)
        assert body == {
            "chainResults": [{"chainId": 1, "txHashes": ["0x" + "ab" * 32]}],
            "walletAuthorization": {"signature": "0x" + "cd" * 65},
        }
        return Reply(200, {"apiVersion": "1", "attemptId": ATTEMPT, "status": "wallet_submitted"})
    if seen.path == f"/api/external/attempts/{ATTEMPT}/events":
        data = json.dumps({"eventId": "ev-2", "event": "settled", "attemptId": ATTEMPT, "status": "settled"})
        return Reply(chunks=[f"id: ev-2\nevent: settled\ndata: {data}\n\n".encode()])
    return Reply(404, ERRORS["route_not_found"]["example"])


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Tuple[str, List[str]]]:
    lines: List[str] = []
    with ScriptedServer(handler=service) as svc, Client(svc.url, "my-partner", "dev-only-my-secret") as client:
        app = partner_backend.PartnerBackend(
            client,
            "my-partner",
            "dev-only-my-secret",
            partner_backend.ProcessedEvents(tmp_path / "processed-webhooks.txt"),
            log=lines.append,
        )
        server = app.http_server(0)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}", lines
        finally:
            server.shutdown()
            server.server_close()


def webhook(url: str, event_id: str, kind: str, secret: str = "dev-only-my-secret") -> httpx.Response:
    body = json.dumps({"eventId": event_id, "event": kind, "attemptId": ATTEMPT, "status": kind}).encode()
    timestamp = str(int(time.time() * 1000))
    headers = {
        "X-Partner-Id": "my-partner",
        "X-Timestamp": timestamp,
        "X-Signature": sign_webhook(secret, timestamp, body),
        "X-Service-Event-Id": event_id,
        "content-type": "application/json",
    }
    return httpx.post(f"{url}/webhooks", content=body, headers=headers)


def test_checkout_webhooks_and_order_view(backend: Tuple[str, List[str]]) -> None:
    url, lines = backend
    checkout = httpx.post(f"{url}/checkout", json={"walletAddress": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
    assert checkout.status_code == 200 and checkout.json()["attemptId"] == ATTEMPT
    assert httpx.get(f"{url}/orders/{ATTEMPT}").json()["status"] == "prepared"

    assert webhook(url, "ev-1", "wallet_submitted").json() == {"ok": True, "duplicate": False}
    assert webhook(url, "ev-1", "wallet_submitted").json() == {"ok": True, "duplicate": True}
    assert webhook(url, "ev-2", "settled").status_code == 200
    forged = webhook(url, "ev-3", "failed", secret="not-the-secret")
    assert forged.status_code == 401 and forged.json() == {"error": "signature_invalid"}

    order = httpx.get(f"{url}/orders/{ATTEMPT}").json()
    assert order["status"] == "settled"
    assert order["webhooks"] == [
        {"eventId": "ev-1", "event": "wallet_submitted"},
        {"eventId": "ev-2", "event": "settled"},
    ]
    assert order["live"] == []

    # The frontend's report: forwarded as submitted (one operation per attempt), then the live stream is followed.
    evidence = {"chainResults": [{"chainId": 1, "txHashes": ["0x" + "ab" * 32]}], "signature": "0x" + "cd" * 65}
    submitted = httpx.post(f"{url}/orders/{ATTEMPT}/submitted", json=evidence)
    assert submitted.status_code == 200 and submitted.json()["status"] == "wallet_submitted"
    deadline = time.monotonic() + 5
    while httpx.get(f"{url}/orders/{ATTEMPT}").json()["live"] == [] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert httpx.get(f"{url}/orders/{ATTEMPT}").json()["live"] == [{"eventId": "ev-2", "event": "settled"}]
    assert [line for line in lines if line.startswith("webhook ")] == [
        f"webhook wallet_submitted attempt {ATTEMPT} eventId ev-1 (verified)",
        f"webhook settled attempt {ATTEMPT} eventId ev-2 (verified)",
    ]


def test_refusals_and_unknown_routes(backend: Tuple[str, List[str]]) -> None:
    url, _ = backend
    refused = httpx.post(f"{url}/checkout", json={"walletAddress": "bad"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_wallet_address"
    assert httpx.get(f"{url}/orders/at_unknown").status_code == 404
    assert httpx.post(f"{url}/sandbox/orders/{ATTEMPT}/pay").status_code == 404  # no sandbox wallet configured
