"""The live status stream (reconnects with Last-Event-ID, ends at a terminal event or status, typed refusals) and
the pagers (cursors passed back byte for byte, from cursors.json), on a scripted loopback server, sync and async."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import Reply, ScriptedServer, Seen  # noqa: E402
from _support import load  # noqa: E402
from intent_partner import AsyncClient, Client, NotFoundError  # noqa: E402

CURSORS = load("cursors")
ERRORS = {case["code"]: case for case in load("errors")["cases"]}
ATTEMPT = "at_3e9d2c1b0a4f4e8d9c7b6a5f4e3d2c1b"
EVENTS = [("ev-1", "wallet_submitted"), ("ev-2", "provider_pending"), ("ev-3", "settled")]


def sse(event_id: str, kind: str) -> bytes:
    body = {"apiVersion": "1", "attemptId": ATTEMPT, "status": kind, "eventId": event_id, "event": kind}
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(body)}\n\n".encode()


class StreamScript:
    """Connection 1: ev-1 then the connection drops. 2: ev-2, a message without an id of its own (it carries ev-2, the
    last id: not a new event), then a clean end before the attempt ended (status is still provider_pending). 3: 503.
    4: ev-3 (settled) in chunks cut mid-line, then the end."""

    def __init__(self) -> None:
        self.connections = 0
        self.status_calls = 0

    def __call__(self, seen: Seen) -> Reply:
        if seen.path.endswith("/status"):
            self.status_calls += 1
            return Reply(200, {"apiVersion": "1", "attemptId": ATTEMPT, "status": "provider_pending"})
        assert seen.path == f"/api/external/attempts/{ATTEMPT}/events"
        self.connections += 1
        if self.connections == 1:
            return Reply(chunks=[b": live status of the attempt\n\n", sse(*EVENTS[0])], drop_after_chunks=True)
        if self.connections == 2:
            return Reply(chunks=[sse(*EVENTS[1]), b'data: {"eventId": "not-an-event"}\n\n', b": heartbeat\n\n"])
        if self.connections == 3:
            return Reply(503, ERRORS["dependency_unavailable"]["example"])
        whole = sse(*EVENTS[2])
        return Reply(chunks=[whole[:7], whole[7:30], whole[30:]])


def check_stream(server: ScriptedServer, events: List[Any], script: StreamScript) -> None:
    assert [(e.id, e.event) for e in events] == EVENTS
    assert events[2].data["status"] == "settled"
    streams = [s for s in server.seen if s.path.endswith("/events")]
    assert [s.headers.get("last-event-id") for s in streams] == [None, "ev-1", "ev-2", "ev-2"]
    assert all(s.headers["accept"] == "text/event-stream" for s in streams)
    assert len({s.headers["x-nonce"] for s in streams}) == 4 and all(s.signature_ok for s in streams)
    assert script.status_calls == 1  # asked once, when the stream ended without a terminal event


def test_stream_reconnects_with_last_event_id_until_settled() -> None:
    script = StreamScript()
    with ScriptedServer(handler=script) as server:
        with Client(server.url, "my-partner", "dev-only-my-secret", sleep=lambda s: None) as c:
            events = list(c.attempt_events(ATTEMPT))
    check_stream(server, events, script)


@pytest.mark.anyio
async def test_async_stream_reconnects_with_last_event_id_until_settled() -> None:
    script = StreamScript()

    async def no_sleep(seconds: float) -> None:
        return None

    with ScriptedServer(handler=script) as server:
        async with AsyncClient(server.url, "my-partner", "dev-only-my-secret", sleep=no_sleep) as c:
            events = [e async for e in c.attempt_events(ATTEMPT)]
    check_stream(server, events, script)


def test_stream_ends_when_the_status_is_terminal_without_an_event() -> None:
    def handler(seen: Seen) -> Reply:
        if seen.path.endswith("/status"):
            return Reply(200, {"apiVersion": "1", "attemptId": ATTEMPT, "status": "expired"})
        return Reply(chunks=[b": nothing to tell\n\n"])

    with ScriptedServer(handler=handler) as server, Client(server.url, "my-partner", "dev-only-my-secret") as c:
        assert list(c.attempt_events(ATTEMPT, last_event_id="ev-0")) == []
    assert server.seen[0].headers["last-event-id"] == "ev-0"


def test_a_refused_stream_raises_its_typed_error_without_retrying() -> None:
    with ScriptedServer([Reply(404, ERRORS["attempt_not_found"]["example"])]) as server:
        with Client(server.url, "my-partner", "dev-only-my-secret") as c:
            with pytest.raises(NotFoundError) as caught:
                list(c.attempt_events(ATTEMPT))
    assert caught.value.code == "attempt_not_found" and len(server.seen) == 1


# --- pages -----------------------------------------------------------------------------------------------------------
SEARCH_CURSOR = CURSORS["searchAttempts"]["roundTrips"][0]["cursor"]
EVENTS_CURSORS = [r["cursor"] for r in CURSORS["webhookEvents"]["roundTrips"]]


def pages_handler(seen: Seen) -> Reply:
    if seen.path == "/api/external/attempts/search":
        body = json.loads(seen.body)
        assert body["walletAddress"] == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" and body["limit"] == 1
        if "cursor" not in body:
            return Reply(200, {"apiVersion": "1", "attempts": [{"attemptId": "at_2"}], "nextCursor": SEARCH_CURSOR})
        assert body["cursor"] == SEARCH_CURSOR  # byte for byte
        return Reply(200, {"apiVersion": "1", "attempts": [{"attemptId": "at_1"}], "nextCursor": None})
    if seen.path == "/api/external/webhooks/events":
        return Reply(
            200, {"apiVersion": "1", "events": [{"eventId": "e1"}], "nextCursor": EVENTS_CURSORS[0], "hasMore": True}
        )
    if seen.path == f"/api/external/webhooks/events/after/{EVENTS_CURSORS[0]}":
        return Reply(
            200, {"apiVersion": "1", "events": [{"eventId": "e2"}], "nextCursor": EVENTS_CURSORS[1], "hasMore": False}
        )
    return Reply(404, ERRORS["route_not_found"]["example"])


SEARCH: Dict[str, Any] = {"walletAddress": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "limit": 1}


def test_pagers_follow_the_cursors() -> None:
    with ScriptedServer(handler=pages_handler) as server, Client(server.url, "my-partner", "dev-only-my-secret") as c:
        assert [a["attemptId"] for a in c.iter_attempts(SEARCH)] == ["at_2", "at_1"]
        assert [e["eventId"] for e in c.iter_webhook_events()] == ["e1", "e2"]
        pages = list(c.iter_webhook_event_pages())
        assert pages[-1]["nextCursor"] == EVENTS_CURSORS[1]  # where to continue from later
    searches = [s for s in server.seen if s.path.endswith("/search")]
    assert len({s.headers["idempotency-key"] for s in searches}) == 2  # a new body, a new key
    assert all(s.signature_ok for s in server.seen)


@pytest.mark.anyio
async def test_async_pagers_follow_the_cursors() -> None:
    with ScriptedServer(handler=pages_handler) as server:
        async with AsyncClient(server.url, "my-partner", "dev-only-my-secret") as c:
            assert [a["attemptId"] async for a in c.iter_attempts(SEARCH)] == ["at_2", "at_1"]
            assert [e["eventId"] async for e in c.iter_webhook_events()] == ["e1", "e2"]


@pytest.mark.parametrize("why", ["Empty.", "Characters outside base64url, percent-encoded."])
def test_cursors_the_service_refuses_are_not_even_sent(why: str) -> None:
    refusal = next(r for r in CURSORS["webhookEvents"]["refusals"] if r["why"] == why)
    with ScriptedServer([]) as server, Client(server.url, "my-partner", "dev-only-my-secret") as c:
        with pytest.raises(ValueError):
            c.webhook_events_after(refusal["cursor"])
    assert server.seen == []
