"""construct_event: verify_webhook on the current clock, accepting exactly what webhooks.json accepts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _support import load, raw  # noqa: E402
from intent_partner import WebhookVerificationError, construct_event, sign_webhook  # noqa: E402

CASES = load("webhooks")["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_vectors(case: dict) -> None:
    verifier = case["verifier"]
    call = lambda: construct_event(  # noqa: E731
        raw(case["body"]),
        case["headers"],
        verifier["secrets"],
        partner_id=verifier["partnerId"],
        tolerance_ms=verifier["toleranceMs"],
        now_ms=verifier["nowMs"],
    )
    if case["expected"]["ok"]:
        assert call().event_id == case["expected"]["eventId"]
    else:
        with pytest.raises(WebhookVerificationError) as caught:
            call()
        assert caught.value.reason.value == case["expected"]["reason"]


def test_uses_the_current_clock() -> None:
    ok = next(c for c in CASES if c["expected"]["ok"])
    body = raw(ok["body"])
    secret = ok["verifier"]["secrets"][0]
    headers = dict(ok["headers"])
    names = {k.lower(): k for k in headers}
    # The vector's own timestamp is far from now: refused as expired on the real clock.
    with pytest.raises(WebhookVerificationError) as caught:
        construct_event(body, headers, secret, partner_id=ok["verifier"]["partnerId"])
    assert caught.value.reason.value == "timestamp_expired"
    # Re-signed now: accepted.
    now = str(int(time.time() * 1000))
    headers[names["x-timestamp"]] = now
    headers[names["x-signature"]] = sign_webhook(secret, now, body)
    event = construct_event(body, headers, [secret], partner_id=ok["verifier"]["partnerId"])
    assert event.event_id == ok["expected"]["eventId"]
