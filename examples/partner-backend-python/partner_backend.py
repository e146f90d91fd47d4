"""A partner's backend in a few routes, on the standard library's http.server and the SDK (public entry only):

POST /checkout                      quote, then prepare: returns what the user's wallet must do
POST /orders/{attemptId}/submitted  the frontend reports the wallet's transactions and signature; forwarded
GET  /orders/{attemptId}            what this backend knows (from verified webhooks and the live stream)
POST /webhooks                      the service's signed webhooks: verified, deduplicated, logged
POST /sandbox/orders/{id}/pay       SANDBOX ONLY (see sandbox_wallet): the wallet part, then submitted
"""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from intent_partner import (
    ApiError,
    Client,
    PrepareResponse,
    WebhookEvent,
    WebhookVerificationError,
    construct_event,
)

Answer = Tuple[int, Any]


@dataclass
class Order:
    """What this backend remembers of one checkout (a real one keeps it in its database)."""

    # The JSON names of the TypeScript example's GET /orders answer, kept as field names for asdict().
    attemptId: str  # noqa: N815
    intentSessionId: str  # noqa: N815
    status: str = "prepared"
    """The latest status a verified webhook announced ('prepared' until the first one)."""
    webhooks: List[Dict[str, str]] = field(default_factory=list)
    """Verified webhooks, in the order they arrived, each eventId once."""
    live: List[Dict[str, str]] = field(default_factory=list)
    """The same lifecycle events, as read from the live status stream (SSE)."""


class ProcessedEvents:
    """An append-only file of processed eventIds, one per line, flushed to disk before the 2xx (durable dedupe)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.ids: Set[str] = set()
        if path.exists():
            lines = path.read_text(encoding="utf-8").split("\n")
            self.ids = {line for line in lines[:-1] if line}  # a torn last line was never acknowledged

    def add_once(self, event_id: str, process: Callable[[], None]) -> bool:
        """Runs ``process`` and records the id, unless it was already processed; False for a duplicate."""
        with self.lock:
            if event_id in self.ids:
                return False
            process()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(event_id + "\n")
                f.flush()
                os.fsync(f.fileno())
            self.ids.add(event_id)
            return True


class PartnerBackend:
    def __init__(
        self,
        client: Client,
        partner_id: str,
        secret: str,
        processed: ProcessedEvents,
        sandbox_wallet: Optional[Callable[[PrepareResponse], Dict[str, Any]]] = None,
        log: Callable[[str], None] = lambda line: print(line, flush=True),
    ) -> None:
        self.client = client
        self.partner_id = partner_id
        self.secret = secret
        self.processed = processed
        self.sandbox_wallet = sandbox_wallet
        self.log = log
        self.lock = threading.Lock()
        self.orders: Dict[str, Order] = {}
        self.prepared: Dict[str, PrepareResponse] = {}

    # --- POST /checkout: quote, then prepare at once (the quote's intent session lasts about 60 s) ------------------
    def checkout(self, quote_request: Dict[str, Any]) -> Answer:
        quote = self.client.quote(quote_request)  # type: ignore[arg-type]
        # `partial_only` covers part of the target: a real checkout would show that to the user first.
        if quote["quoteStatus"] in ("unavailable", "expired"):
            return 409, quote
        # An empty body (no walletContext) yields plain sendTransaction actions, which any wallet can execute.
        attempt = self.client.prepare(quote["intentSessionId"])
        with self.lock:
            self.prepared[attempt["attemptId"]] = attempt
            self.orders[attempt["attemptId"]] = Order(attempt["attemptId"], quote["intentSessionId"])
        self.log(
            f"checkout: attempt {attempt['attemptId']} prepared, the wallet must act before {attempt['expiresAt']}"
        )
        # Hand this to the frontend: the wallet executes `chainActions` and signs `walletAuthorization` (EIP-712).
        return 200, attempt

    # --- POST /orders/{attemptId}/submitted: the frontend's report -------------------------------------------------
    def submitted(self, attempt_id: str, result: Dict[str, Any]) -> Answer:
        snapshot = self.client.submitted(
            attempt_id,
            {"chainResults": result["chainResults"], "walletAuthorization": {"signature": result["signature"]}},
            # One operation per attempt: a retry after a crash resends the same key and bytes.
            operation_id=f"submitted:{attempt_id}",
        )
        self.follow(attempt_id)
        return 200, snapshot

    def follow(self, attempt_id: str) -> None:
        """Optional, beside the webhooks: the live status stream, until the attempt ends."""

        def run() -> None:
            try:
                for event in self.client.attempt_events(attempt_id):
                    with self.lock:
                        order = self.orders.get(attempt_id)
                        if order is not None:
                            order.live.append({"eventId": event.id, "event": event.event})
            except Exception as error:  # noqa: BLE001 - logged, the webhooks still arrive
                self.log(f"live status of {attempt_id} stopped: {error!r}")

        threading.Thread(target=run, daemon=True).start()

    # --- POST /webhooks: verify the raw bytes, process each eventId once, then 2xx --------------------------------
    def webhook(self, raw: bytes, headers: List[Tuple[str, str]]) -> Answer:
        try:
            event = construct_event(raw, headers, self.secret, partner_id=self.partner_id)
        except WebhookVerificationError as error:
            return 401, {"error": error.reason.value}
        fresh = self.processed.add_once(event.event_id, lambda: self.on_event(event))
        return 200, {"ok": True, "duplicate": not fresh}

    def on_event(self, event: WebhookEvent) -> None:
        attempt_id = event.payload.get("attemptId")
        self.log(f"webhook {event.event} attempt {attempt_id or '-'} eventId {event.event_id} (verified)")
        with self.lock:
            order = self.orders.get(attempt_id or "")
            if order is not None:
                order.webhooks.append({"eventId": event.event_id, "event": event.event or ""})
                order.status = event.event or order.status

    def order(self, attempt_id: str) -> Answer:
        with self.lock:
            order = self.orders.get(attempt_id)
            return (200, asdict(order)) if order else (404, {"error": "no such order"})

    # --- POST /sandbox/orders/{attemptId}/pay: SANDBOX ONLY ---------------------------------------------------------
    def sandbox_pay(self, attempt_id: str) -> Answer:
        with self.lock:
            attempt = self.prepared.get(attempt_id)
        if attempt is None or self.sandbox_wallet is None:
            return 404, {"error": "no such order"}
        evidence = self.sandbox_wallet(attempt)
        return self.submitted(
            attempt_id,
            {"chainResults": evidence["chainResults"], "signature": evidence["walletAuthorization"]["signature"]},
        )

    # --- routing ----------------------------------------------------------------------------------------------------
    def route(self, method: str, path: str, body: bytes, headers: List[Tuple[str, str]]) -> Answer:
        if method == "POST" and path == "/webhooks":
            return self.webhook(body, headers)
        try:
            if method == "POST" and path == "/checkout":
                return self.checkout(read_json(body))
            match = re.fullmatch(r"/orders/([^/]+)/submitted", path)
            if method == "POST" and match:
                return self.submitted(match.group(1), read_json(body))
            match = re.fullmatch(r"/orders/([^/]+)", path)
            if method == "GET" and match:
                return self.order(match.group(1))
            match = re.fullmatch(r"/sandbox/orders/([^/]+)/pay", path)
            if method == "POST" and match and self.sandbox_wallet is not None:
                return self.sandbox_pay(match.group(1))
        except ApiError as error:
            # The service's answer, passed on: its status and ErrorResponse body (code, message, requestId...).
            return error.status, error.body or {"code": error.code, "message": error.message}
        return 404, {"error": "not found"}

    def http_server(self, port: int) -> ThreadingHTTPServer:
        backend = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def handle_any(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))  # raw bytes: webhooks need them
                try:
                    status, body = backend.route(self.command, self.path.split("?")[0], raw, self.headers.items())
                except Exception as error:  # noqa: BLE001
                    backend.log(f"{self.command} {self.path} failed: {error!r}")
                    status, body = 500, {"error": "internal error"}
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = handle_any
            do_POST = handle_any

        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        server.daemon_threads = True
        return server


def read_json(body: bytes) -> Dict[str, Any]:
    return json.loads(body.decode("utf-8")) if body else {}
