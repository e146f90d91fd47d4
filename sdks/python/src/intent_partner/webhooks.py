"""Webhook verification, framework-neutral: raw body bytes + headers + secret(s) + now -> event or typed error.

Receiver rules 1 to 3 of docs/webhooks.md: partner id, timestamp and signature are checked over the raw bytes before
anything is parsed, then the X-Service-Event-Id header must equal the payload's ``eventId``. Deduplicating by
``eventId`` and persisting before answering 2xx are the receiver's part.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping as AbcMapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .signing import Bytes, sign_webhook, timing_safe_equal_hex

DEFAULT_TOLERANCE_MS = 300_000
"""Five minutes either way (docs/webhooks.md)."""

HeaderValue = Union[str, Sequence[str], None]
Headers = Union[Mapping[str, HeaderValue], Iterable[Tuple[str, str]]]
"""A mapping (values may be lists for repeated headers) or ordered ``(name, value)`` pairs, e.g. WSGI's list."""


class WebhookRejection(str, Enum):
    """Why a delivery was refused; the values are the vectors' ``reason`` strings."""

    HEADER_MISSING = "header_missing"
    HEADER_DUPLICATED = "header_duplicated"
    PARTNER_MISMATCH = "partner_mismatch"
    TIMESTAMP_INVALID = "timestamp_invalid"
    TIMESTAMP_EXPIRED = "timestamp_expired"
    SIGNATURE_INVALID = "signature_invalid"
    BODY_INVALID = "body_invalid"
    EVENT_ID_MISMATCH = "event_id_mismatch"


class WebhookVerificationError(Exception):
    """A delivery that must not be processed. Answer it with a non-2xx status (e.g. 401) and process nothing."""

    def __init__(self, reason: WebhookRejection) -> None:
        super().__init__(f"webhook rejected: {reason.value}")
        self.reason = reason


@dataclass(frozen=True)
class WebhookEvent:
    """A verified delivery. ``payload`` is the parsed JSON object, with every field (known or not)."""

    event_id: str
    event: Optional[str]
    payload: Dict[str, Any]
    timestamp: str


_WEBHOOK_HEADERS = {
    "partner_id": "x-partner-id",
    "timestamp": "x-timestamp",
    "signature": "x-signature",
    "event_id": "x-service-event-id",
}
_TIMESTAMP = re.compile(r"[0-9]{1,16}")
_SIGNATURE = re.compile(r"[0-9a-f]{64}")


def _pairs(headers: Headers) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []
    if isinstance(headers, AbcMapping):
        items: Iterable[Tuple[str, Any]] = headers.items()
    else:
        items = headers
    for name, value in items:
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            out.extend((name, str(v)) for v in value)
        else:
            out.append((name, str(value)))
    return out


def _read_header(pairs: List[Tuple[str, str]], name: str) -> str:
    values = [value for key, value in pairs if key.lower() == name]
    if len(values) > 1:
        # Which copy was signed is unknowable: refused rather than joined or picked.
        raise WebhookVerificationError(WebhookRejection.HEADER_DUPLICATED)
    if not values or values[0] == "":
        raise WebhookVerificationError(WebhookRejection.HEADER_MISSING)
    return values[0]


def verify_webhook(
    raw_body: Bytes,
    headers: Headers,
    *,
    partner_id: str,
    secrets: Union[str, Sequence[str]],
    now_ms: int,
    tolerance_ms: int = DEFAULT_TOLERANCE_MS,
) -> WebhookEvent:
    """Verifies one delivery; returns the event or raises :class:`WebhookVerificationError`.

    ``raw_body`` must be the bytes as received (never a re-serialized parse). ``secrets`` is your secret, or during
    a rotation the new one and the one being retired: a signature by any of them is accepted. ``now_ms`` is the
    receiver's clock in epoch milliseconds (``int(time.time() * 1000)``).
    """
    pairs = _pairs(headers)
    found = {field: _read_header(pairs, name) for field, name in _WEBHOOK_HEADERS.items()}
    if found["partner_id"] != partner_id:
        raise WebhookVerificationError(WebhookRejection.PARTNER_MISMATCH)
    timestamp = found["timestamp"]
    if not _TIMESTAMP.fullmatch(timestamp):
        raise WebhookVerificationError(WebhookRejection.TIMESTAMP_INVALID)
    if abs(now_ms - int(timestamp)) > tolerance_ms:
        raise WebhookVerificationError(WebhookRejection.TIMESTAMP_EXPIRED)
    signature = found["signature"]
    candidates = [secrets] if isinstance(secrets, str) else list(secrets)
    body = bytes(raw_body)
    # Every secret is tried (no early exit), so the time taken does not tell which one matched.
    matches = [timing_safe_equal_hex(sign_webhook(secret, timestamp, body), signature) for secret in candidates]
    if not _SIGNATURE.fullmatch(signature) or not any(matches):
        raise WebhookVerificationError(WebhookRejection.SIGNATURE_INVALID)
    try:
        payload = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WebhookVerificationError(WebhookRejection.BODY_INVALID) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("eventId"), str):
        raise WebhookVerificationError(WebhookRejection.BODY_INVALID)
    if payload["eventId"] != found["event_id"]:
        raise WebhookVerificationError(WebhookRejection.EVENT_ID_MISMATCH)
    event = payload.get("event")
    return WebhookEvent(
        event_id=payload["eventId"],
        event=event if isinstance(event, str) else None,
        payload=payload,
        timestamp=timestamp,
    )


def construct_event(
    raw_body: Bytes,
    headers: Headers,
    secrets: Union[str, Sequence[str]],
    *,
    partner_id: str,
    tolerance_ms: int = DEFAULT_TOLERANCE_MS,
    now_ms: Optional[int] = None,
) -> WebhookEvent:
    """Verifies a delivery against the current clock and returns its event: the one call a webhook route needs.

    Give it the raw body bytes exactly as received and the request's headers (any mapping, or ``(name, value)``
    pairs, as every framework has them); ``secrets`` is your partner secret, or during a rotation the new and the
    old one. Raises :class:`WebhookVerificationError` (answer 401 and process nothing) when the delivery is not
    genuine, fresh and well-formed. Deduplicate on ``event.event_id`` before acting, then answer 2xx.
    """
    clock = int(time.time() * 1000) if now_ms is None else now_ms
    return verify_webhook(
        raw_body, headers, partner_id=partner_id, secrets=secrets, now_ms=clock, tolerance_ms=tolerance_ms
    )
