"""Quickstart: one attempt through the External Intent API v1 with the Python SDK, against the local sandbox.

    SERVICE_URL=http://127.0.0.1:3000 PARTNER_ID=demo-partner PARTNER_SECRET=... \\
    SANDBOX_MANIFEST=.sandbox/manifest.json WEBHOOK_PORT=4000 \\
    sdks/python/.venv/bin/python sdks/python/examples/quickstart.py

It listens for webhooks first, then: ping, quote, prepare, the sandbox wallet part, submitted, the live status
stream to the end, status, searchAttempts, transactionAttempt, webhookEvents(After), webhookRedeliver,
webhookRecover, and one deliberate error of each common family. docs/partners/python.md walks through it.
Prints ``op <operationId> ok`` per operation, ``error <family> <code>`` per deliberate error, and
``settled <attemptId> webhook <eventId> verified`` once its receiver verified the settled webhook (exit 0).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional

from intent_partner import (
    ApiError,
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    ValidationError,
    WebhookEvent,
    WebhookVerificationError,
    construct_event,
)
from intent_partner.sandbox import WalletProgress, execute_prepared, load_manifest

USDC = "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35"
ETH = "0x0000000000000000000000000000000000000000"
TIMEOUT = 85.0  # seconds for the whole run


def say(line: str) -> None:
    print(line, flush=True)


# --- 1. Receive webhooks: verify the raw bytes, then deduplicate by eventId ------------------------------------------
class WebhookInbox:
    """What the receiver has verified, by eventId (a real receiver stores them durably before answering 2xx)."""

    def __init__(self) -> None:
        self.events: Dict[str, WebhookEvent] = {}
        self.changed = threading.Condition()

    def wait_for(self, attempt_id: str, kind: str, timeout: float) -> Optional[WebhookEvent]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for event in self.events.values():
                    if event.event == kind and event.payload.get("attemptId") == attempt_id:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)


def start_webhook_receiver(port: int, partner_id: str, secret: str, inbox: WebhookInbox) -> ThreadingHTTPServer:
    class Receiver(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))  # the raw bytes, never re-serialized
            if self.path != "/webhooks":
                self.send_response(404)
                self.end_headers()
                return
            try:
                event = construct_event(raw, self.headers.items(), secret, partner_id=partner_id)
            except WebhookVerificationError as error:
                self.send_response(401)  # not genuine, not fresh or malformed: process nothing
                self.end_headers()
                print(f"webhook refused: {error.reason.value}", file=sys.stderr)
                return
            with inbox.changed:
                inbox.events.setdefault(event.event_id, event)  # deduplicate: a retry carries the same eventId
                inbox.changed.notify_all()
            self.send_response(204)
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> int:
    # The defaults are npm start's: its service, its demo partner (callbackUrl http://127.0.0.1:4000/webhooks) and
    # its sandbox manifest. Run `DEV_WEBHOOK_RECEIVER=off npm start` so that port 4000 is left to this program.
    env = os.environ
    service_url = env.get("SERVICE_URL") or "http://127.0.0.1:3000"
    partner_id = env.get("PARTNER_ID") or "demo-partner"
    secret = env.get("PARTNER_SECRET") or "dev-only-secret-do-not-use-in-production"
    auth_version = int(env.get("PARTNER_AUTH_VERSION") or "2")
    manifest_dir = env.get("SANDBOX_MANIFEST_DIR") or ".sandbox"
    manifest = load_manifest(env.get("SANDBOX_MANIFEST") or os.path.join(manifest_dir, "manifest.json"))
    user = manifest.user(int(env.get("SANDBOX_USER") or "0"))

    inbox = WebhookInbox()
    receiver = start_webhook_receiver(int(env.get("WEBHOOK_PORT") or "4000"), partner_id, secret, inbox)
    started = time.monotonic()

    # --- 2. A client: signs every request, persists each POST's key and bytes, retries safely ------------------------
    with Client(service_url, partner_id, secret, auth_version=auth_version) as client:
        pong = client.ping()
        say(f"op ping ok (partner {pong['partnerId']}, API v{pong['apiVersion']})")

        # --- 3. Quote: two sources (5 USDC on Ethereum, 0.01 ETH on Arbitrum) into USDC on Base -------------------
        quote = client.quote(
            {
                "walletAddress": user.address,
                "recipient": user.address,
                "sources": [
                    {"chainId": 1, "address": USDC, "amount": "5000000", "symbol": "USDC", "decimals": 6},
                    {"chainId": 42161, "address": ETH, "amount": "10000000000000000", "symbol": "ETH", "decimals": 18},
                ],
                "target": {
                    "chainId": 8453,
                    "address": USDC,
                    "targetToken": {"address": USDC, "symbol": "USDC", "decimals": 6},
                },
            }
        )
        say(f"op quote ok ({quote['quoteStatus']}, intentSessionId {quote['intentSessionId']})")
        if quote["quoteStatus"] != "ready":
            raise SystemExit(f"the quote is {quote['quoteStatus']}, not ready")

        # --- 4. Prepare at once (a quote lives about 60 s): the chain actions and the EIP-712 authorization --------
        prepared = client.prepare(quote["intentSessionId"])
        attempt_id = prepared["attemptId"]
        say(f"op prepare ok (attempt {attempt_id}, {len(prepared['chainActions'])} chain actions)")

        # --- 5. SANDBOX ONLY: the user's wallet part (in production, the user's own wallet does this) --------------
        def show(step: WalletProgress) -> None:
            if step.kind == "transaction":
                say(f"  chain {step.chain_id}: transaction {step.tx_hash} mined in block {step.block_number}")

        evidence = execute_prepared(prepared, user.private_key, manifest.chains, on_progress=show)

        # --- 6. Report the evidence; a named operation resends the same key and bytes after a crash ---------------
        snapshot = client.submitted(attempt_id, evidence, operation_id=f"submitted:{attempt_id}")
        say(f"op submitted ok (status {snapshot['status']})")

        # --- 7. Follow the live status stream (SSE) until the attempt ends --------------------------------------
        for event in client.attempt_events(attempt_id):
            say(f"  live: {event.event} (eventId {event.id})")
        say("op attemptEvents ok")

        final = client.status(attempt_id)
        say(f"op status ok ({final['status']})")
        if final["status"] != "settled":
            raise SystemExit(f"attempt {attempt_id} ended {final['status']}")

        # --- 8. Look it up: by wallet (every page, 1 per page), by transaction hash ----------------------------
        found: List[str] = [a["attemptId"] for a in client.iter_attempts({"walletAddress": user.address, "limit": 1})]
        say(f"op searchAttempts ok ({len(found)} attempts of {user.address}, ours included: {attempt_id in found})")
        chain_result = evidence["chainResults"][0]
        by_tx = client.transaction_attempt(chain_result["chainId"], chain_result["txHashes"][0])
        say(f"op transactionAttempt ok ({by_tx['attemptId']})")

        # --- 9. The webhook log: every page, then redeliver the settled event, then recover a range ------------
        pages = list(client.iter_webhook_event_pages())
        say(f"op webhookEvents ok ({len(pages[0]['events'])} events on the first page)")
        more = client.webhook_events_after(pages[-1]["nextCursor"])
        say(f"op webhookEventsAfter ok ({len(pages)} pages, then {len(more['events'])} newer events)")
        # Redeliver only what has arrived: an event still being delivered is refused (409 webhook_delivery_pending).
        settled_webhook = inbox.wait_for(attempt_id, "settled", TIMEOUT - (time.monotonic() - started))
        if settled_webhook is None:
            raise SystemExit(f"no verified settled webhook for {attempt_id} within {TIMEOUT:.0f} s")
        # Until the service has recorded that delivery (our 2xx), the event still counts as queued: wait a moment.
        for _ in range(50):
            try:
                redelivered = client.webhook_redeliver(settled_webhook.event_id)
                break
            except ConflictError as error:
                if error.code != "webhook_delivery_pending":
                    raise
                time.sleep(0.2)
        else:
            raise SystemExit(f"the settled webhook of {attempt_id} stayed pending for 10 s")
        say(f"op webhookRedeliver ok ({redelivered['action']})")
        now = datetime.now(timezone.utc)
        recovered = client.webhook_recover(
            {"from": iso(now - timedelta(minutes=5)), "to": iso(now + timedelta(minutes=1))}
        )
        say(f"op webhookRecover ok ({len(recovered['recovered'])} events sent again)")

        # --- 10. Errors are typed: branch on the class (family) and on error.code -------------------------------
        try:
            client.quote({"walletAddress": "not-an-address", "sources": []})
        except ValidationError as error:
            say(f"error {error.family} {error.code}")
        try:
            client.prepare("is_unknown")
        except NotFoundError as error:
            say(f"error {error.family} {error.code}")
    with Client(service_url, partner_id, "not-the-secret", auth_version=auth_version) as wrong:
        try:
            wrong.ping()
        except AuthenticationError as error:
            say(f"error {error.family} {error.code}")

    # --- 11. The settled webhook, verified by the receiver of step 1 (before the redelivery above) ------------------
    receiver.shutdown()
    say(f"settled {attempt_id} webhook {settled_webhook.event_id} verified")
    return 0


def iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


if __name__ == "__main__":
    code = 1
    try:
        code = main()
    except ApiError as error:  # the reason on stderr, and exit code 1
        print(f"quickstart failed: {error!r}: {error.message}", file=sys.stderr)
    except SystemExit as stop:
        print(f"quickstart failed: {stop.code}", file=sys.stderr)
    except Exception as error:
        print(f"quickstart failed: {type(error).__name__}: {error}", file=sys.stderr)
    sys.exit(code)
