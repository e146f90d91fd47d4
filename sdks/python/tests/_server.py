"""A scripted HTTP server on loopback (``http.server`` in a thread) for the client tests.

Each request is recorded (method, path, headers, raw body) and answered by the next scripted step: a JSON answer,
raw bytes, or ``DROP`` (the connection is closed without an answer). A route handler may be given instead of a
script. Every request is also checked the way the service checks it: the signature over the exact bytes received.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from intent_partner import PartnerCredentials, sign_request

DROP = "drop"


@dataclass
class Reply:
    status: int = 200
    body: Union[bytes, Dict[str, Any], List[Any], None] = None
    headers: Dict[str, str] = field(default_factory=dict)
    chunks: Optional[List[bytes]] = None
    """Streamed (SSE): written one by one, flushed, then the connection is closed."""
    drop_after_chunks: bool = False
    """Close the connection abruptly after the chunks (no terminating chunk): a dropped stream."""


Step = Union[Reply, str]


@dataclass
class Seen:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes
    signature_ok: bool


class ScriptedServer:
    def __init__(
        self,
        script: Optional[List[Step]] = None,
        handler: Optional[Callable[[Seen], Step]] = None,
        credentials: Optional[PartnerCredentials] = None,
    ) -> None:
        self.script = list(script or [])
        self.handler = handler
        self.credentials = credentials or PartnerCredentials("my-partner", "dev-only-my-secret", 2)
        self.seen: List[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                seen = Seen(
                    self.command, self.path, headers, body, server._signature_ok(self.command, self.path, headers, body)
                )
                with server._lock:
                    server.seen.append(seen)
                    step = (
                        server.handler(seen)
                        if server.handler
                        else (
                            server.script.pop(0)
                            if server.script
                            else Reply(500, {"code": "internal_error", "message": "script exhausted"})
                        )
                    )
                if step == DROP:
                    self.close_connection = True
                    self.connection.close()
                    return
                assert isinstance(step, Reply)
                if step.chunks is not None:
                    self.send_response(step.status)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("transfer-encoding", "chunked")
                    for k, v in step.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    for chunk in step.chunks:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    if not step.drop_after_chunks:
                        self.wfile.write(b"0\r\n\r\n")
                    self.close_connection = True
                    return
                raw = (
                    step.body
                    if isinstance(step.body, bytes)
                    else (b"" if step.body is None else json.dumps(step.body).encode())
                )
                self.send_response(step.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                for k, v in step.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

            do_GET = _handle
            do_POST = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def _signature_ok(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> bool:
        try:
            expected = sign_request(
                self.credentials,
                method=method,
                path=path,
                timestamp=headers["x-timestamp"],
                nonce=headers.get("x-nonce"),
                body=body,
                idempotency_key=headers.get("idempotency-key"),
            )
        except (KeyError, ValueError):
            return False
        return expected.signature == headers.get("x-signature")

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def error_body(code: str, status: int, message: str = "scripted") -> Dict[str, Any]:
    return {"code": code, "message": message, "status": status, "path": "/", "requestId": "req-test"}


def pairs(seen: List[Seen], header: str) -> List[Tuple[str, Optional[str]]]:
    return [(s.path, s.headers.get(header)) for s in seen]
