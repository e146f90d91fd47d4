"""The HTTP clients of the External Intent API v1: :class:`Client` (httpx.Client) and :class:`AsyncClient`
(httpx.AsyncClient), one method per operation of docs/openapi.json, the same surface on both.

What a client does for you on every call:

- signs each try (v2: partner id, timestamp, nonce, method, canonical path, Idempotency-Key and body hash; or v1),
  with a fresh timestamp and nonce per try;
- for a POST, persists the Idempotency-Key and the exact body bytes in its idempotency store BEFORE sending, and
  sends that same key and those same bytes on every retry (after a crash too, with a file store and your own
  ``operation_id``);
- retries what is safe to retry: no answer (connection error, time-out), 5xx except 501, 429 and 409
  ``idempotency_request_in_progress``, waiting for Retry-After, bounded, with jittered backoff; never any other
  4xx (``idempotency_key_reused`` included);
- returns a 2xx answer's JSON, typed by :mod:`intent_partner.models`; raises the typed :class:`ApiError` of any
  other answer; raises :class:`NoResponseError` when no answer came after every try.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from dataclasses import dataclass
from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Dict,
    Iterator,
    Mapping,
    Optional,
    Tuple,
    Union,
    cast,
)

import httpx

from ._transport import (
    HEADER_LAST_EVENT_ID,
    TERMINAL_EVENTS,
    Answer,
    ApiBase,
    IdempotencyConflictError,
    NoResponseError,
    PartnerClientError,
    RetryPolicy,
    encode_body,
    is_terminal_status,
    retry_delay,
    signed_headers,
)
from .idempotency import IdempotencyRecord, IdempotencyStore, MemoryIdempotencyStore
from .models import (
    AttemptSearchRequest,
    AttemptSearchResponse,
    AttemptSnapshot,
    AttemptSummary,
    PingResponse,
    PrepareRequest,
    PrepareResponse,
    QuoteRequest,
    QuoteResponse,
    SubmittedRequest,
    TransactionAttemptResponse,
    WebhookEvent,
    WebhookEventRecord,
    WebhookEventsResponse,
    WebhookRecoverRequest,
    WebhookRecoverResponse,
    WebhookRedeliverResponse,
)
from .paths import path_segment
from .signing import PartnerCredentials
from .sse import SseParser

OPERATIONS: Dict[str, str] = {
    "ping": "ping",
    "quote": "quote",
    "prepare": "prepare",
    "submitted": "submitted",
    "status": "status",
    "searchAttempts": "search_attempts",
    "transactionAttempt": "transaction_attempt",
    "webhookEvents": "webhook_events",
    "webhookEventsAfter": "webhook_events_after",
    "webhookRedeliver": "webhook_redeliver",
    "webhookRecover": "webhook_recover",
    "attemptEvents": "attempt_events",
}
"""Every operationId of the contract and the method that calls it (on both :class:`Client` and :class:`AsyncClient`)."""

DEFAULT_TIMEOUT = 30.0
"""Seconds per try: a quote may take up to its ``maxWaitMs`` of 18 s."""
_LONG_LIVED_STREAM = 10.0
"""A stream open at least this long (seconds) before it ended does not count towards the retry limit."""


@dataclass(frozen=True)
class AttemptStreamEvent:
    """One lifecycle event of the live status stream: the same id, kind and body as its webhook."""

    id: str
    """The event id (equal to the webhook's ``eventId``): pass it as ``last_event_id`` to resume after it."""
    event: str
    """``wallet_submitted``, ``provider_pending``, ``settled`` or ``failed``."""
    data: WebhookEvent


@dataclass(frozen=True)
class _Post:
    path: str
    body: bytes
    key: str
    operation_id: str
    named: bool
    """Whether the caller named the operation (then its record is kept for a later resend)."""


class _Base:
    """Configuration and request building shared by both clients (no I/O)."""

    def __init__(
        self,
        base_url: str,
        partner_id: str,
        secret: str,
        *,
        auth_version: int = 2,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        retry_base_delay: float = 0.2,
        retry_max_delay: float = 10.0,
        idempotency_store: Optional[IdempotencyStore] = None,
    ) -> None:
        if auth_version not in (1, 2):
            raise ValueError(f"auth_version must be 1 or 2, not {auth_version!r}")
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self._base = ApiBase.parse(base_url)
        self._credentials = PartnerCredentials(partner_id=partner_id, secret=secret, auth_version=auth_version)  # type: ignore[arg-type]
        self._policy = RetryPolicy(max_retries=max_retries, base_delay=retry_base_delay, max_delay=retry_max_delay)
        self._timeout = timeout
        self._store: IdempotencyStore = idempotency_store if idempotency_store is not None else MemoryIdempotencyStore()

    @property
    def partner_id(self) -> str:
        return self._credentials.partner_id

    def __repr__(self) -> str:
        origin = self._base.origin + self._base.path_prefix
        return f"{type(self).__name__}({origin!r}, partner_id={self.partner_id!r})"

    def _url(self, path: str) -> str:
        return self._base.origin + path

    def _headers(self, method: str, path: str, body: Optional[bytes], key: Optional[str]) -> Dict[str, str]:
        headers = signed_headers(self._credentials, method=method, path=path, body=body, idempotency_key=key)
        headers["accept"] = "application/json"
        return headers

    def _post_record(
        self, endpoint: str, body: Mapping[str, Any], operation_id: Optional[str], idempotency_key: Optional[str]
    ) -> _Post:
        """The stored record of an operation, or a new one persisted before anything is sent."""
        text = encode_body(body)
        named = operation_id is not None
        op = operation_id if operation_id is not None else f"op-{uuid.uuid4()}"
        stored = self._store.get(op)
        if stored is not None:
            if stored.body != text:
                raise IdempotencyConflictError(op, "body")
            if idempotency_key is not None and stored.key != idempotency_key:
                raise IdempotencyConflictError(op, "key")
            record = stored
        else:
            record = IdempotencyRecord(key=idempotency_key or str(uuid.uuid4()), body=text)
            self._store.put(op, record)
        return _Post(
            path=self._base.path(endpoint),
            body=record.body.encode("utf-8"),
            key=record.key,
            operation_id=op,
            named=named,
        )

    def _finish_post(self, post: _Post) -> None:
        # An operation nobody can name again needs no record once it has a final answer.
        if not post.named:
            self._store.delete(post.operation_id)

    def _no_response(
        self, method: str, path: str, tries: int, failure: Optional[BaseException], post: Optional[_Post] = None
    ) -> NoResponseError:
        return NoResponseError(
            f"{method} {path} got no response after {tries} tries: {_describe(failure)}",
            method=method,
            path=path,
            tries=tries,
            operation_id=post.operation_id if post is not None else None,
            idempotency_key=post.key if post is not None else None,
        )

    def _stream_request(self, attempt_id: str, last_event_id: Optional[str]) -> Tuple[str, Dict[str, str]]:
        path = self._base.path(f"/attempts/{path_segment(attempt_id)}/events")
        headers = signed_headers(self._credentials, method="GET", path=path, body=None, idempotency_key=None)
        headers["accept"] = "text/event-stream"
        headers["cache-control"] = "no-cache"
        if last_event_id is not None:
            headers[HEADER_LAST_EVENT_ID] = last_event_id
        return path, headers

    def _stream_timeout(self) -> httpx.Timeout:
        # Heartbeats arrive every 15 s; a read silent for longer than this means a dead connection.
        return httpx.Timeout(self._timeout, read=max(self._timeout, 45.0))


def _describe(error: Optional[BaseException]) -> str:
    if error is None:
        return "no answer"
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}"


def _result(answer: Answer) -> Any:
    """A 2xx answer's JSON; any other answer raises its typed error."""
    if 200 <= answer.status < 300:
        body = answer.json()
        if body is None:
            raise PartnerClientError(f"answer {answer.status} carried no JSON body")
        return body
    raise answer.error()


def _stream_event(message_id: str, event: str, data: str) -> Optional[AttemptStreamEvent]:
    if message_id == "":
        return None
    try:
        parsed = json.loads(data)
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    return AttemptStreamEvent(id=message_id, event=event, data=cast(WebhookEvent, parsed))


def _search_page_body(search: Mapping[str, Any], cursor: Optional[str]) -> Dict[str, Any]:
    body = dict(search)
    if cursor is not None:
        body["cursor"] = cursor
    return body


class Client(_Base):
    """The synchronous client. Use it as a context manager, or call :meth:`close`.

    ::

        with Client("https://api.example.com", "my-partner", secret) as client:
            print(client.ping()["partnerId"])

    ``base_url`` is the deployment root (``/api/external`` is appended; a path prefix such as
    ``https://host/intents`` is kept and signed). ``transport`` is an httpx transport, e.g. ``httpx.MockTransport``
    in tests. ``sleep`` replaces :func:`time.sleep` between retries.
    """

    def __init__(
        self,
        base_url: str,
        partner_id: str,
        secret: str,
        *,
        auth_version: int = 2,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        retry_base_delay: float = 0.2,
        retry_max_delay: float = 10.0,
        idempotency_store: Optional[IdempotencyStore] = None,
        transport: Optional[httpx.BaseTransport] = None,
        sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        super().__init__(
            base_url,
            partner_id,
            secret,
            auth_version=auth_version,
            timeout=timeout,
            max_retries=max_retries,
            retry_base_delay=retry_base_delay,
            retry_max_delay=retry_max_delay,
            idempotency_store=idempotency_store,
        )
        # Redirects are not followed: a signed request goes only where it was signed for.
        self._http = httpx.Client(transport=transport, timeout=timeout, follow_redirects=False)
        self._sleep = sleep or time.sleep

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the operations --------------------------------------------------------------------------------------------
    def ping(self) -> PingResponse:
        """``GET /ping``: proves the credentials and the connection."""
        return cast(PingResponse, self._get("/ping"))

    def quote(
        self, body: QuoteRequest, *, operation_id: Optional[str] = None, idempotency_key: Optional[str] = None
    ) -> QuoteResponse:
        """``POST /intents/quote``: plans how the sources reach the target. Prepare soon after: a quote lives ~60 s."""
        return cast(QuoteResponse, self._post("/intents/quote", body, operation_id, idempotency_key))

    def prepare(
        self,
        intent_session_id: str,
        body: Optional[PrepareRequest] = None,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> PrepareResponse:
        """``POST /intents/{intentSessionId}/prepare``: the attempt, its chain actions and the EIP-712 authorization.
        Without a body ``{}`` is sent (no wallet context: plain ``sendTransaction`` actions)."""
        endpoint = f"/intents/{path_segment(intent_session_id)}/prepare"
        return cast(PrepareResponse, self._post(endpoint, body or {}, operation_id, idempotency_key))

    def submitted(
        self,
        attempt_id: str,
        body: SubmittedRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AttemptSnapshot:
        """``POST /attempts/{attemptId}/submitted``: the wallet's evidence (tx hashes per chain, the signature).
        Name the operation (e.g. ``operation_id=f"submitted:{attempt_id}"``) to resend the same key after a crash."""
        endpoint = f"/attempts/{path_segment(attempt_id)}/submitted"
        return cast(AttemptSnapshot, self._post(endpoint, body, operation_id, idempotency_key))

    def status(self, attempt_id: str) -> AttemptSnapshot:
        """``GET /attempts/{attemptId}/status``: the attempt's snapshot."""
        return cast(AttemptSnapshot, self._get(f"/attempts/{path_segment(attempt_id)}/status"))

    def search_attempts(
        self,
        body: AttemptSearchRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AttemptSearchResponse:
        """``POST /attempts/search``: one page of attempts by ``walletAddress`` and/or ``recipient``, newest first.
        See :meth:`iter_attempts` for every page."""
        return cast(AttemptSearchResponse, self._post("/attempts/search", body, operation_id, idempotency_key))

    def transaction_attempt(self, chain_id: Union[int, str], tx_hash: str) -> TransactionAttemptResponse:
        """``GET /transactions/{chainId}/{txHash}/attempt``: the attempt that knows this transaction."""
        endpoint = f"/transactions/{path_segment(str(chain_id))}/{path_segment(tx_hash)}/attempt"
        return cast(TransactionAttemptResponse, self._get(endpoint))

    def webhook_events(self) -> WebhookEventsResponse:
        """``GET /webhooks/events``: the first page of your webhook events, oldest first, with their deliveries."""
        return cast(WebhookEventsResponse, self._get("/webhooks/events"))

    def webhook_events_after(self, cursor: str) -> WebhookEventsResponse:
        """``GET /webhooks/events/after/{cursor}``: the page after a ``nextCursor`` (passed back byte for byte)."""
        return cast(WebhookEventsResponse, self._get(f"/webhooks/events/after/{path_segment(cursor)}"))

    def webhook_redeliver(
        self, event_id: str, *, operation_id: Optional[str] = None, idempotency_key: Optional[str] = None
    ) -> WebhookRedeliverResponse:
        """``POST /webhooks/redeliver/{eventId}``: sends one event's webhook again."""
        endpoint = f"/webhooks/redeliver/{path_segment(event_id)}"
        return cast(WebhookRedeliverResponse, self._post(endpoint, {}, operation_id, idempotency_key))

    def webhook_recover(
        self,
        body: WebhookRecoverRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> WebhookRecoverResponse:
        """``POST /webhooks/recover`` with ``{"from", "to"}`` (ISO 8601): sends every ended event of the range again,
        a page per call; with a ``continuation`` in the answer, call again with it (same ``from`` and ``to``)."""
        return cast(WebhookRecoverResponse, self._post("/webhooks/recover", body, operation_id, idempotency_key))

    def attempt_events(self, attempt_id: str, *, last_event_id: Optional[str] = None) -> Iterator[AttemptStreamEvent]:
        """``GET /attempts/{attemptId}/events`` (Server-Sent Events): each lifecycle event once, in order, until the
        attempt ends. Reconnects with ``Last-Event-ID`` when the connection drops or the server ends the stream early;
        5xx and 429 are retried with backoff; any other refusal raises its :class:`ApiError`.

        ::

            for e in client.attempt_events(attempt_id):
                print(e.event, e.data["status"])
        """
        failures = 0
        while True:
            refused: Optional[Answer] = None
            failure: Optional[BaseException] = PartnerClientError("the stream ended before the attempt did")
            reconnect_ms: Optional[int] = None
            path, headers = self._stream_request(attempt_id, last_event_id)
            opened = time.monotonic()
            try:
                with self._http.stream("GET", self._url(path), headers=headers, timeout=self._stream_timeout()) as r:
                    if r.status_code != 200:
                        refused = Answer(r.status_code, r.headers, r.read())
                    else:
                        parser = SseParser()
                        saw_terminal = False
                        for chunk in r.iter_bytes():
                            for message in parser.feed(chunk):
                                event = _stream_event(message.id, message.event, message.data)
                                # A message without an id of its own carries the last one: not a new event.
                                if event is None or event.id == last_event_id:
                                    continue
                                last_event_id = event.id
                                failures = 0
                                saw_terminal = saw_terminal or event.event in TERMINAL_EVENTS
                                yield event
                        if saw_terminal or self._has_ended(attempt_id):
                            return
                        if time.monotonic() - opened >= _LONG_LIVED_STREAM:
                            failures = 0
                        reconnect_ms = parser.retry_ms
            except httpx.RequestError as error:
                failure = error
            delay = retry_delay(refused, failures, self._policy, time.time())
            if delay is None:
                if refused is not None:
                    raise refused.error()
                raise self._no_response("GET", path, failures + 1, failure)
            if reconnect_ms is not None:
                delay = max(delay, reconnect_ms / 1000)
            failures += 1
            self._sleep(delay)

    # --- pages -----------------------------------------------------------------------------------------------------
    def iter_attempt_pages(self, search: AttemptSearchRequest) -> Iterator[AttemptSearchResponse]:
        """Every page of :meth:`search_attempts`, following ``nextCursor`` (opaque, sent back as is, same filters)."""
        cursor: Optional[str] = search.get("cursor")
        while True:
            page = self.search_attempts(cast(AttemptSearchRequest, _search_page_body(search, cursor)))
            yield page
            cursor = page.get("nextCursor")
            if not cursor:
                return

    def iter_attempts(self, search: AttemptSearchRequest) -> Iterator[AttemptSummary]:
        """Every attempt matching ``search``, newest first, across pages of ``search["limit"]`` (default 50)."""
        for page in self.iter_attempt_pages(search):
            yield from page["attempts"]

    def iter_webhook_event_pages(self, after: Optional[str] = None) -> Iterator[WebhookEventsResponse]:
        """Every page of webhook events from the start (or after the cursor ``after``), until ``hasMore`` is false.
        The last page's ``nextCursor`` is where to continue from later."""
        page = self.webhook_events() if after is None else self.webhook_events_after(after)
        while True:
            yield page
            if not page.get("hasMore"):
                return
            page = self.webhook_events_after(page["nextCursor"])

    def iter_webhook_events(self, after: Optional[str] = None) -> Iterator[WebhookEventRecord]:
        """Every webhook event, oldest first (see :meth:`iter_webhook_event_pages`)."""
        for page in self.iter_webhook_event_pages(after):
            yield from page["events"]

    # --- sending ---------------------------------------------------------------------------------------------------
    def _get(self, endpoint: str) -> Any:
        path = self._base.path(endpoint)
        return _result(self._send("GET", path, None, None))

    def _post(
        self, endpoint: str, body: Mapping[str, Any], operation_id: Optional[str], idempotency_key: Optional[str]
    ) -> Any:
        post = self._post_record(endpoint, body, operation_id, idempotency_key)
        answer = self._send("POST", post.path, post.body, post.key, post)
        self._finish_post(post)
        return _result(answer)

    def _send(
        self, method: str, path: str, body: Optional[bytes], key: Optional[str], post: Optional[_Post] = None
    ) -> Answer:
        """One request until a final answer: the same bytes and key on every try, a fresh signature each time."""
        for tries in itertools.count(1):
            answer: Optional[Answer] = None
            failure: Optional[BaseException] = None
            try:
                r = self._http.request(
                    method, self._url(path), headers=self._headers(method, path, body, key), content=body
                )
                answer = Answer(r.status_code, r.headers, r.content)
            except httpx.RequestError as error:
                failure = error
            delay = retry_delay(answer, tries - 1, self._policy, time.time())
            if delay is None:
                if answer is not None:
                    return answer
                raise self._no_response(method, path, tries, failure, post) from failure
            self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def _has_ended(self, attempt_id: str) -> bool:
        try:
            return is_terminal_status(self.status(attempt_id).get("status"))
        except Exception:  # unknown: keep following (bounded by the retry policy)
            return False


class AsyncClient(_Base):
    """The asyncio client: the same methods as :class:`Client`, awaited; :meth:`attempt_events` and the ``iter_*``
    helpers are async iterators. Use it as an async context manager, or ``await client.aclose()``.

    ::

        async with AsyncClient("https://api.example.com", "my-partner", secret) as client:
            print((await client.ping())["partnerId"])

    The idempotency store is called synchronously (a file store writes a small file per POST).
    """

    def __init__(
        self,
        base_url: str,
        partner_id: str,
        secret: str,
        *,
        auth_version: int = 2,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        retry_base_delay: float = 0.2,
        retry_max_delay: float = 10.0,
        idempotency_store: Optional[IdempotencyStore] = None,
        transport: Optional[httpx.AsyncBaseTransport] = None,
        sleep: Optional[Callable[[float], Awaitable[None]]] = None,
    ) -> None:
        super().__init__(
            base_url,
            partner_id,
            secret,
            auth_version=auth_version,
            timeout=timeout,
            max_retries=max_retries,
            retry_base_delay=retry_base_delay,
            retry_max_delay=retry_max_delay,
            idempotency_store=idempotency_store,
        )
        self._http = httpx.AsyncClient(transport=transport, timeout=timeout, follow_redirects=False)
        self._sleep = sleep or asyncio.sleep

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # --- the operations (see Client for each one's documentation) --------------------------------------------------
    async def ping(self) -> PingResponse:
        return cast(PingResponse, await self._get("/ping"))

    async def quote(
        self, body: QuoteRequest, *, operation_id: Optional[str] = None, idempotency_key: Optional[str] = None
    ) -> QuoteResponse:
        return cast(QuoteResponse, await self._post("/intents/quote", body, operation_id, idempotency_key))

    async def prepare(
        self,
        intent_session_id: str,
        body: Optional[PrepareRequest] = None,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> PrepareResponse:
        endpoint = f"/intents/{path_segment(intent_session_id)}/prepare"
        return cast(PrepareResponse, await self._post(endpoint, body or {}, operation_id, idempotency_key))

    async def submitted(
        self,
        attempt_id: str,
        body: SubmittedRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AttemptSnapshot:
        endpoint = f"/attempts/{path_segment(attempt_id)}/submitted"
        return cast(AttemptSnapshot, await self._post(endpoint, body, operation_id, idempotency_key))

    async def status(self, attempt_id: str) -> AttemptSnapshot:
        return cast(AttemptSnapshot, await self._get(f"/attempts/{path_segment(attempt_id)}/status"))

    async def search_attempts(
        self,
        body: AttemptSearchRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AttemptSearchResponse:
        return cast(AttemptSearchResponse, await self._post("/attempts/search", body, operation_id, idempotency_key))

    async def transaction_attempt(self, chain_id: Union[int, str], tx_hash: str) -> TransactionAttemptResponse:
        endpoint = f"/transactions/{path_segment(str(chain_id))}/{path_segment(tx_hash)}/attempt"
        return cast(TransactionAttemptResponse, await self._get(endpoint))

    async def webhook_events(self) -> WebhookEventsResponse:
        return cast(WebhookEventsResponse, await self._get("/webhooks/events"))

    async def webhook_events_after(self, cursor: str) -> WebhookEventsResponse:
        return cast(WebhookEventsResponse, await self._get(f"/webhooks/events/after/{path_segment(cursor)}"))

    async def webhook_redeliver(
        self, event_id: str, *, operation_id: Optional[str] = None, idempotency_key: Optional[str] = None
    ) -> WebhookRedeliverResponse:
        endpoint = f"/webhooks/redeliver/{path_segment(event_id)}"
        return cast(WebhookRedeliverResponse, await self._post(endpoint, {}, operation_id, idempotency_key))

    async def webhook_recover(
        self,
        body: WebhookRecoverRequest,
        *,
        operation_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> WebhookRecoverResponse:
        return cast(WebhookRecoverResponse, await self._post("/webhooks/recover", body, operation_id, idempotency_key))

    async def attempt_events(
        self, attempt_id: str, *, last_event_id: Optional[str] = None
    ) -> AsyncIterator[AttemptStreamEvent]:
        """See :meth:`Client.attempt_events`; ``async for e in client.attempt_events(attempt_id): ...``"""
        failures = 0
        while True:
            refused: Optional[Answer] = None
            failure: Optional[BaseException] = PartnerClientError("the stream ended before the attempt did")
            reconnect_ms: Optional[int] = None
            path, headers = self._stream_request(attempt_id, last_event_id)
            opened = time.monotonic()
            try:
                async with self._http.stream(
                    "GET", self._url(path), headers=headers, timeout=self._stream_timeout()
                ) as r:
                    if r.status_code != 200:
                        refused = Answer(r.status_code, r.headers, await r.aread())
                    else:
                        parser = SseParser()
                        saw_terminal = False
                        async for chunk in r.aiter_bytes():
                            for message in parser.feed(chunk):
                                event = _stream_event(message.id, message.event, message.data)
                                # A message without an id of its own carries the last one: not a new event.
                                if event is None or event.id == last_event_id:
                                    continue
                                last_event_id = event.id
                                failures = 0
                                saw_terminal = saw_terminal or event.event in TERMINAL_EVENTS
                                yield event
                        if saw_terminal or await self._has_ended(attempt_id):
                            return
                        if time.monotonic() - opened >= _LONG_LIVED_STREAM:
                            failures = 0
                        reconnect_ms = parser.retry_ms
            except httpx.RequestError as error:
                failure = error
            delay = retry_delay(refused, failures, self._policy, time.time())
            if delay is None:
                if refused is not None:
                    raise refused.error()
                raise self._no_response("GET", path, failures + 1, failure)
            if reconnect_ms is not None:
                delay = max(delay, reconnect_ms / 1000)
            failures += 1
            await self._sleep(delay)

    # --- pages -----------------------------------------------------------------------------------------------------
    async def iter_attempt_pages(self, search: AttemptSearchRequest) -> AsyncIterator[AttemptSearchResponse]:
        cursor: Optional[str] = search.get("cursor")
        while True:
            page = await self.search_attempts(cast(AttemptSearchRequest, _search_page_body(search, cursor)))
            yield page
            cursor = page.get("nextCursor")
            if not cursor:
                return

    async def iter_attempts(self, search: AttemptSearchRequest) -> AsyncIterator[AttemptSummary]:
        async for page in self.iter_attempt_pages(search):
            for attempt in page["attempts"]:
                yield attempt

    async def iter_webhook_event_pages(self, after: Optional[str] = None) -> AsyncIterator[WebhookEventsResponse]:
        page = await (self.webhook_events() if after is None else self.webhook_events_after(after))
        while True:
            yield page
            if not page.get("hasMore"):
                return
            page = await self.webhook_events_after(page["nextCursor"])

    async def iter_webhook_events(self, after: Optional[str] = None) -> AsyncIterator[WebhookEventRecord]:
        async for page in self.iter_webhook_event_pages(after):
            for event in page["events"]:
                yield event

    # --- sending ---------------------------------------------------------------------------------------------------
    async def _get(self, endpoint: str) -> Any:
        path = self._base.path(endpoint)
        return _result(await self._send("GET", path, None, None))

    async def _post(
        self, endpoint: str, body: Mapping[str, Any], operation_id: Optional[str], idempotency_key: Optional[str]
    ) -> Any:
        post = self._post_record(endpoint, body, operation_id, idempotency_key)
        answer = await self._send("POST", post.path, post.body, post.key, post)
        self._finish_post(post)
        return _result(answer)

    async def _send(
        self, method: str, path: str, body: Optional[bytes], key: Optional[str], post: Optional[_Post] = None
    ) -> Answer:
        for tries in itertools.count(1):
            answer: Optional[Answer] = None
            failure: Optional[BaseException] = None
            try:
                r = await self._http.request(
                    method, self._url(path), headers=self._headers(method, path, body, key), content=body
                )
                answer = Answer(r.status_code, r.headers, r.content)
            except httpx.RequestError as error:
                failure = error
            delay = retry_delay(answer, tries - 1, self._policy, time.time())
            if delay is None:
                if answer is not None:
                    return answer
                raise self._no_response(method, path, tries, failure, post) from failure
            await self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _has_ended(self, attempt_id: str) -> bool:
        try:
            return is_terminal_status((await self.status(attempt_id)).get("status"))
        except Exception:
            return False
