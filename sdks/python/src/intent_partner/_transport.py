"""What the sync and async clients share: where requests go, how each try is signed, when to retry and how long to
wait. No I/O here; ``client.py`` does the sending with httpx."""

from __future__ import annotations

import email.utils
import json
import random as _random
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional
from urllib.parse import urlsplit

from .errors import ApiError, parse_api_error
from .signing import PartnerCredentials, sign_request

API_PREFIX = "/api/external"
HEADER_RETRY_AFTER = "retry-after"
HEADER_LAST_EVENT_ID = "last-event-id"
TERMINAL_STATUSES = frozenset({"settled", "failed", "expired"})
TERMINAL_EVENTS = frozenset({"settled", "failed"})


class PartnerClientError(Exception):
    """A problem of the SDK or the network, not an answer of the API (those are :class:`ApiError`)."""


class NoResponseError(PartnerClientError):
    """No complete answer arrived after every try (connection refused or dropped, time-out).

    The request may or may not have run. A POST can be sent again safely with the same key and bytes: call the
    same method again with ``operation_id=error.operation_id`` (and the same body), from this process or, with a
    :class:`~intent_partner.FileIdempotencyStore`, from another one.
    """

    def __init__(
        self,
        message: str,
        *,
        method: str,
        path: str,
        tries: int,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.method = method
        self.path = path
        self.tries = tries
        self.operation_id = operation_id
        self.idempotency_key = idempotency_key


class IdempotencyConflictError(PartnerClientError):
    """An ``operation_id`` was reused with another body or another key: a new body needs a new operation (and key)."""

    def __init__(self, operation_id: str, what: str) -> None:
        super().__init__(
            f"operation {operation_id!r} was first sent with another {what}; "
            "a new body needs a new operation_id (and Idempotency-Key)"
        )
        self.operation_id = operation_id
        self.what = what


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries: ``max_retries`` after the first try, backoff doubling from ``base_delay`` (seconds) with
    jitter, both the backoff and a server's Retry-After capped at ``max_delay``."""

    max_retries: int = 3
    base_delay: float = 0.2
    max_delay: float = 10.0


@dataclass(frozen=True)
class ApiBase:
    """The deployment's origin and path prefix, from the configured base URL."""

    origin: str
    path_prefix: str

    @classmethod
    def parse(cls, base_url: str) -> "ApiBase":
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"base_url must be an http(s) URL: {base_url!r}")
        if parts.query or parts.fragment:
            raise ValueError(f"base_url takes no query or fragment: {base_url!r}")
        return cls(origin=f"{parts.scheme}://{parts.netloc}", path_prefix=parts.path.rstrip("/"))

    def path(self, endpoint: str) -> str:
        """The signed pathname of an endpoint: the base pathname, ``/api/external``, then the endpoint."""
        return f"{self.path_prefix}{API_PREFIX}{endpoint}"


@dataclass
class Answer:
    """One complete HTTP answer."""

    status: int
    headers: Mapping[str, str]
    content: bytes

    def json(self) -> Any:
        if not self.content:
            return None
        try:
            return json.loads(self.content.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None

    def error(self) -> ApiError:
        return parse_api_error(self.status, self.content, retry_after=self.headers.get(HEADER_RETRY_AFTER))


_DELAY_SECONDS = re.compile(r"[0-9]{1,9}")
_HTTP_DATE = re.compile(r"[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT")


def parse_retry_after(value: Optional[str], now: float) -> Optional[float]:
    """A Retry-After value (RFC 9110: delay-seconds or an IMF-fixdate) as seconds from ``now`` (epoch seconds);
    None when absent or unreadable. A past date means 0."""
    if value is None:
        return None
    text = value.strip()
    if _DELAY_SECONDS.fullmatch(text):
        return float(int(text))
    if not _HTTP_DATE.fullmatch(text):
        return None
    try:
        at = email.utils.parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - now)


def is_retryable(answer: Answer) -> bool:
    """5xx except 501, 429, and 409 ``idempotency_request_in_progress``; every other answer is final."""
    if answer.status >= 500:
        return answer.status != 501
    if answer.status == 429:
        return True
    if answer.status == 409:
        body = answer.json()
        return isinstance(body, dict) and body.get("code") == "idempotency_request_in_progress"
    return False


def retry_delay(
    answer: Optional[Answer],
    retry_index: int,
    policy: RetryPolicy,
    now: float,
    random: Callable[[], float] = _random.random,
) -> Optional[float]:
    """Seconds to wait before retry number ``retry_index`` (0-based), or None when this outcome is final.

    ``answer`` None means no answer at all (the request may or may not have run, which is why a retry keeps the
    key and bytes). The backoff is jittered between half and all of ``base_delay * 2**retry_index`` (capped), so
    clients failing together do not retry in lockstep; a longer Retry-After wins, capped at ``max_delay``.
    """
    if retry_index >= policy.max_retries:
        return None
    if answer is not None and not is_retryable(answer):
        return None
    step = min(policy.max_delay, policy.base_delay * (2.0**retry_index))
    backoff = step / 2 + random() * step / 2
    retry_after = parse_retry_after(answer.headers.get(HEADER_RETRY_AFTER), now) if answer is not None else None
    if retry_after is None:
        return backoff
    return min(policy.max_delay, max(retry_after, backoff))


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


def now_ms() -> int:
    return int(time.time() * 1000)


def signed_headers(
    credentials: PartnerCredentials,
    *,
    method: str,
    path: str,
    body: Optional[bytes],
    idempotency_key: Optional[str],
    clock_ms: Callable[[], int] = now_ms,
) -> Dict[str, str]:
    """The headers of ONE try: a fresh timestamp and nonce each time, the same key and bytes on every try."""
    signed = sign_request(
        credentials,
        method=method,
        path=path,
        timestamp=clock_ms(),
        nonce=new_nonce(),
        body=body,
        idempotency_key=idempotency_key,
    )
    return dict(signed.headers)


def encode_body(body: Mapping[str, Any]) -> str:
    """The JSON text of a request body (compact, UTF-8 kept): what is persisted, hashed, signed and sent."""
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def is_terminal_status(status: Any) -> bool:
    return isinstance(status, str) and status in TERMINAL_STATUSES
