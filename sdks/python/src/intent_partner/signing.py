"""Request signing of the External Intent API (auth versions 2 and 1) and the hex helpers webhooks share.

Bodies are signed as the exact bytes sent: hash and send the same ``bytes`` object, never re-serialize JSON.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Dict, Literal, Optional, Union

from .paths import canonicalize_path

AuthVersion = Literal[1, 2]
Bytes = Union[bytes, bytearray, memoryview]

HEADER_PARTNER_ID = "x-partner-id"
HEADER_TIMESTAMP = "x-timestamp"
HEADER_AUTH_VERSION = "x-service-auth-version"
HEADER_NONCE = "x-nonce"
HEADER_SIGNATURE = "x-signature"
HEADER_IDEMPOTENCY_KEY = "idempotency-key"
HEADER_CONTENT_TYPE = "content-type"

_HEX_BYTES = re.compile(r"(?:[0-9a-fA-F]{2})+")


def sha256_hex(data: Bytes) -> str:
    """Lower-case hex SHA-256 of raw bytes."""
    return hashlib.sha256(bytes(data)).hexdigest()


def _hmac_hex(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class SigningPartsV2:
    """The inputs of the v2 signing string."""

    partner_id: str
    timestamp: str
    """Decimal epoch milliseconds, exactly as sent in X-Timestamp."""
    nonce: str
    method: str
    path: str
    """The canonical path (see :func:`intent_partner.paths.canonicalize_path`)."""
    idempotency_key: str
    """The Idempotency-Key value; ``""`` when the request carries none (GET)."""
    body_sha256: str


def signing_string_v2(parts: SigningPartsV2) -> bytes:
    """The ten LF-joined lines signed by auth version 2, UTF-8 encoded, with no trailing newline."""
    lines = [
        "SERVICE-EXTERNAL-REQUEST",
        "auth-version:2",
        "api-version:1",
        f"partner-id:{parts.partner_id}",
        f"timestamp:{parts.timestamp}",
        f"nonce:{parts.nonce}",
        f"method:{parts.method.upper()}",
        f"path:{parts.path}",
        f"idempotency-key:{parts.idempotency_key}",
        f"body-sha256:{parts.body_sha256}",
    ]
    return "\n".join(lines).encode("utf-8")


def timestamp_dot_body(timestamp: str, raw_body: Bytes) -> bytes:
    """``<timestamp>.<raw body>``: the signed message of a v1 request and of every webhook."""
    return timestamp.encode("utf-8") + b"." + bytes(raw_body)


def sign_request_v2(secret: str, parts: SigningPartsV2) -> str:
    """X-Signature of a v2 request: lower-case hex HMAC-SHA256 of the signing string, keyed with the secret."""
    return _hmac_hex(secret, signing_string_v2(parts))


def sign_request_v1(secret: str, timestamp: str, raw_body: Bytes) -> str:
    """X-Signature of a legacy v1 request: HMAC-SHA256 of ``<X-Timestamp>.<raw body>``."""
    return _hmac_hex(secret, timestamp_dot_body(timestamp, raw_body))


def sign_webhook(secret: str, timestamp: str, raw_body: Bytes) -> str:
    """X-Signature of a webhook delivery: always ``<X-Timestamp>.<raw JSON body>``."""
    return _hmac_hex(secret, timestamp_dot_body(timestamp, raw_body))


def timing_safe_equal_hex(a: str, b: str) -> bool:
    """Compares two hex digests in constant time; False (never an exception) on a length mismatch or non-hex."""
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    if len(a) != len(b) or not _HEX_BYTES.fullmatch(a) or not _HEX_BYTES.fullmatch(b):
        return False
    return hmac.compare_digest(bytes.fromhex(a), bytes.fromhex(b))


@dataclass(frozen=True)
class PartnerCredentials:
    partner_id: str
    secret: str
    auth_version: AuthVersion = 2

    def __repr__(self) -> str:  # never print the secret
        return f"PartnerCredentials(partner_id={self.partner_id!r}, auth_version={self.auth_version})"


@dataclass(frozen=True)
class SignedRequest:
    """One signed try of a request: what to send and how it was signed."""

    method: str
    canonical_path: str
    body: bytes
    body_sha256: str
    signed_message: bytes
    signature: str
    headers: Dict[str, str]
    """Every header to send for authentication (lower-case names), plus Idempotency-Key and Content-Type."""


def sign_request(
    credentials: PartnerCredentials,
    *,
    method: str,
    path: str,
    timestamp: Union[str, int],
    nonce: Optional[str],
    body: Optional[Bytes] = None,
    idempotency_key: Optional[str] = None,
) -> SignedRequest:
    """Signs one try of a request.

    ``path`` is canonicalised first (:class:`~intent_partner.paths.InvalidPathError` if refused) and the canonical
    form is signed. ``timestamp`` (epoch ms) and ``nonce`` are fresh per try; the caller injects them so that a
    retry can keep the same ``idempotency_key`` and body bytes. v2 requires a nonce; v1 ignores it.
    """
    method_upper = method.upper()
    canonical = canonicalize_path(path)
    raw = bytes(body) if body is not None else b""
    ts = str(timestamp)
    body_hash = sha256_hex(raw)
    headers: Dict[str, str] = {HEADER_PARTNER_ID: credentials.partner_id, HEADER_TIMESTAMP: ts}
    if credentials.auth_version == 2:
        if not nonce:
            raise ValueError("auth version 2 needs a nonce")
        message = signing_string_v2(
            SigningPartsV2(
                partner_id=credentials.partner_id,
                timestamp=ts,
                nonce=nonce,
                method=method_upper,
                path=canonical,
                idempotency_key=idempotency_key or "",
                body_sha256=body_hash,
            )
        )
        headers[HEADER_AUTH_VERSION] = "2"
        headers[HEADER_NONCE] = nonce
    elif credentials.auth_version == 1:
        message = timestamp_dot_body(ts, raw)
    else:
        raise ValueError(f"unknown auth version: {credentials.auth_version!r}")
    signature = _hmac_hex(credentials.secret, message)
    headers[HEADER_SIGNATURE] = signature
    if idempotency_key is not None:
        headers[HEADER_IDEMPOTENCY_KEY] = idempotency_key
    if method_upper == "POST":
        headers[HEADER_CONTENT_TYPE] = "application/json"
    return SignedRequest(
        method=method_upper,
        canonical_path=canonical,
        body=raw,
        body_sha256=body_hash,
        signed_message=message,
        signature=signature,
        headers=headers,
    )
