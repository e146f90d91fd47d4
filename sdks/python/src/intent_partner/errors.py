"""Typed errors of the External Intent API: the ErrorResponse envelope parsed into one class per error family.

Every error carries the stable ``code`` (branch on it, never on ``message``), the HTTP ``status``, ``message``,
``path``, ``details`` and ``request_id`` (quote it to support). Unknown fields of the envelope are kept in ``body``.
A code this SDK does not know yet is classified by its status, so a newer server never breaks a client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple, Type, TypedDict, Union


class ErrorDetail(TypedDict, total=False):
    """One entry of ``details``: a field-level problem (``field`` is absent for whole-request problems)."""

    code: str
    field: str
    message: str


@dataclass(frozen=True)
class FieldError:
    code: str
    message: str
    field: Optional[str] = None


class ApiError(Exception):
    """An error answered by the API (any non-2xx with or without an ErrorResponse body)."""

    family: str = "api"

    def __init__(
        self,
        *,
        status: int,
        code: str,
        message: str,
        path: Optional[str] = None,
        details: Optional[List[ErrorDetail]] = None,
        request_id: Optional[str] = None,
        retry_after_seconds: Optional[float] = None,
        body: Optional[Mapping[str, Any]] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.path = path
        self.details: List[ErrorDetail] = list(details or [])
        self.request_id = request_id
        self.retry_after_seconds = retry_after_seconds
        self.body: Dict[str, Any] = dict(body or {})

    @property
    def field_errors(self) -> List[FieldError]:
        """``details`` as dataclasses (entries without a string ``code`` and ``message`` are skipped)."""
        out: List[FieldError] = []
        for d in self.details:
            code, message, field = d.get("code"), d.get("message"), d.get("field")
            if isinstance(code, str) and isinstance(message, str):
                out.append(FieldError(code=code, message=message, field=field if isinstance(field, str) else None))
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, code={self.code!r}, request_id={self.request_id!r})"


class AuthenticationError(ApiError):
    """The request's signature, timestamp, nonce or auth headers were refused, or the partner is disabled.

    Never retried with the same headers: fix the signer or clock (``external_auth_nonce_conflict``: a nonce was
    reused for a different request; sign again with a fresh nonce).
    """

    family = "auth"


class ValidationError(ApiError):
    """The request (body, key, query, ids) is invalid; see ``details``/``field_errors``. Do not retry as is."""

    family = "validation"


class RequestRejectedError(ValidationError):
    """The HTTP request itself was not acceptable (method, media type, encoding, size, malformed): a
    ``ValidationError`` (family ``validation``, as in the TypeScript and Go SDKs) about the request's shape."""


class NotFoundError(ApiError):
    family = "not_found"


class ConflictError(ApiError):
    """The resource's state or the Idempotency-Key forbids this now. ``idempotency_request_in_progress`` is worth
    retrying after ``retry_after_seconds``; ``idempotency_key_reused`` (422) never is: a new body needs a new key."""

    family = "conflict"


class RateLimitedError(ApiError):
    """Too many requests; wait ``retry_after_seconds`` (from Retry-After) before trying again."""

    family = "rate_limited"


class ServerError(ApiError):
    """The service or a dependency failed (5xx). Safe to retry POSTs only with the same Idempotency-Key."""

    family = "server"


def _codes(family: Type[ApiError], *entries: Tuple[str, int]) -> Dict[str, Tuple[int, Type[ApiError]]]:
    return {code: (status, family) for code, status in entries}


ERROR_CODES: Dict[str, Tuple[int, Type[ApiError]]] = {
    **_codes(
        AuthenticationError,
        ("external_auth_signature_invalid", 401),
        ("external_auth_request_invalid", 401),
        ("external_auth_timestamp_invalid", 401),
        ("external_auth_timestamp_expired", 401),
        ("external_auth_nonce_invalid", 401),
        ("external_auth_nonce_conflict", 409),
        ("external_auth_headers_required", 401),
        ("external_auth_version_mismatch", 401),
        ("external_auth_body_required", 401),
        ("partner_disabled", 403),
    ),
    **_codes(
        RequestRejectedError,
        ("method_not_allowed", 405),
        ("payload_too_large", 413),
        ("unsupported_media_type", 415),
        ("content_encoding_unsupported", 415),
        ("malformed_http_request", 400),
        ("request_header_fields_too_large", 431),
    ),
    **_codes(
        ValidationError,
        ("invalid_json", 400),
        ("invalid_request_body", 400),
        ("unknown_field", 400),
        ("request_body_not_allowed", 400),
        ("idempotency_key_not_allowed", 400),
        ("idempotency_key_required", 400),
        ("idempotency_key_invalid", 400),
        ("invalid_wallet_address", 400),
        ("invalid_recipient", 400),
        ("invalid_sources", 400),
        ("duplicate_source", 400),
        ("invalid_chain_id", 400),
        ("invalid_token_address", 400),
        ("invalid_amount", 400),
        ("invalid_decimals", 400),
        ("invalid_symbol", 400),
        ("invalid_usd_value", 400),
        ("usd_value_required", 400),
        ("target_required", 400),
        ("target_conflict", 400),
        ("invalid_target", 400),
        ("target_token_mismatch", 400),
        ("invalid_allocation_percent", 400),
        ("invalid_slippage_bps", 400),
        ("invalid_max_wait_ms", 400),
        ("invalid_fee_bps", 400),
        ("invalid_allow_partial", 400),
        ("invalid_exclude_uneconomic_sources", 400),
        ("invalid_uneconomic_threshold_bps", 400),
        ("invalid_allowed_providers", 400),
        ("invalid_callback_url", 400),
        ("invalid_wallet_context", 400),
        ("invalid_chain_results", 400),
        ("invalid_bundle_id", 400),
        ("invalid_tx_hashes", 400),
        ("invalid_wallet_authorization", 400),
        ("invalid_submitted_at", 400),
        ("invalid_quote_results", 400),
        ("unknown_chain", 400),
        ("contract_wallet_unsupported", 400),
        ("wallet_authorization_invalid", 400),
        ("wallet_authorization_expired", 400),
        ("evidence_limit_exceeded", 400),
        ("search_filter_required", 400),
        ("invalid_status_filter", 400),
        ("invalid_time_range", 400),
        ("invalid_limit", 400),
        ("invalid_cursor", 400),
        ("invalid_transaction_hash", 400),
        ("invalid_webhook_cursor", 400),
        ("invalid_recover_range", 400),
        ("invalid_recover_continuation", 400),
        ("invalid_last_event_id", 400),
    ),
    **_codes(
        NotFoundError,
        ("route_not_found", 404),
        ("intent_session_not_found", 404),
        ("attempt_not_found", 404),
        ("transaction_not_found", 404),
        ("webhook_event_not_found", 404),
    ),
    **_codes(
        ConflictError,
        ("idempotency_key_reused", 422),
        ("idempotency_request_in_progress", 409),
        ("intent_session_expired", 409),
        ("intent_session_not_ready", 409),
        ("quote_changed", 409),
        ("intent_session_already_prepared", 409),
        ("evidence_deadline_passed", 409),
        ("webhook_delivery_pending", 409),
    ),
    **_codes(
        RateLimitedError,
        ("rate_limited", 429),
        ("unauthenticated_rate_limited", 429),
        ("client_connection_limit_reached", 429),
        ("client_body_limit_reached", 429),
        ("webhook_redelivery_rate_limited", 429),
        ("live_stream_limit_reached", 429),
    ),
    **_codes(
        ServerError,
        ("request_timeout", 408),
        ("internal_error", 500),
        ("not_implemented", 501),
        ("dependency_unavailable", 503),
        ("connection_limit_reached", 503),
        ("body_limit_reached", 503),
    ),
}
"""Every stable error code of API v1: the status the service answers it with, and its error class."""


def error_class_for(code: Optional[str], status: int) -> Type[ApiError]:
    """The class of ``code``; for a code this SDK does not know, the family its HTTP status implies."""
    if code is not None and code in ERROR_CODES:
        return ERROR_CODES[code][1]
    if status in (401, 403):
        return AuthenticationError
    if status == 404:
        return NotFoundError
    if status in (409, 422):
        return ConflictError
    if status == 429:
        return RateLimitedError
    if status == 408 or status >= 500:
        return ServerError
    if status in (400,):
        return ValidationError
    if 400 <= status < 500:
        return RequestRejectedError
    return ApiError


def _retry_after(value: Optional[str]) -> Optional[float]:
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None  # an HTTP-date: left to the transport, which knows the clock
    return seconds if seconds >= 0 else None


def parse_api_error(
    status: int,
    body: Union[bytes, str, Mapping[str, Any], None],
    *,
    retry_after: Optional[str] = None,
) -> ApiError:
    """Builds the typed error of a non-2xx response from its status, raw body and Retry-After header value.

    A body that is not an ErrorResponse (a proxy's HTML page, empty) still gives a typed error, with code
    ``http_<status>`` and the body text as message.
    """
    envelope: Optional[Mapping[str, Any]] = None
    text = ""
    if isinstance(body, Mapping):
        envelope = body
    elif body is not None:
        text = body.decode("utf-8", errors="replace") if isinstance(body, (bytes, bytearray)) else body
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            envelope = parsed
    code: Optional[str] = None
    message = text.strip()[:500] or f"HTTP {status}"
    path: Optional[str] = None
    request_id: Optional[str] = None
    details: List[ErrorDetail] = []
    if envelope is not None:
        raw_code = envelope.get("code")
        code = raw_code if isinstance(raw_code, str) and raw_code else None
        raw_message = envelope.get("message")
        if isinstance(raw_message, str):
            message = raw_message
        raw_path = envelope.get("path")
        path = raw_path if isinstance(raw_path, str) else None
        raw_id = envelope.get("requestId")
        request_id = raw_id if isinstance(raw_id, str) else None
        raw_details = envelope.get("details")
        if isinstance(raw_details, list):
            details = [d for d in raw_details if isinstance(d, dict)]  # type: ignore[misc]
    cls = error_class_for(code, status)
    return cls(
        status=status,
        code=code or f"http_{status}",
        message=message,
        path=path,
        details=details,
        request_id=request_id,
        retry_after_seconds=_retry_after(retry_after),
        body=envelope,
    )
