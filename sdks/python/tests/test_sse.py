"""The text/event-stream parser follows the WHATWG rules, whatever the chunk boundaries."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support  # noqa: E402,F401
from intent_partner.sse import SseMessage, SseParser  # noqa: E402

STREAM = (
    "\ufeff: live status of the attempt\r\n"
    "\r\n"
    "id: 1\n"
    "event: wallet_submitted\n"
    'data: {"a":1,\n'
    'data:"b":"é"}\n'
    "\n"
    ": heartbeat\n"
    "\n"
    "retry: 2500\n"
    "retry: 25x\n"
    "id\n"
    "event\n"
    "data\n"
    "data:  two spaces\n"
    "\r"
    "id: 3\x00bad\r"
    "event: provider_pending\r"
    "unknown: field\r"
    "data:third\r\n"
    "\r\n"
    "id: 4\n"
    "event: ignored\n"
    "\n"
    "event: settled\n"
    "data: {}\n"
    "\n"
    "data: never dispatched"
).encode("utf-8")

EXPECTED = [
    SseMessage(id="1", event="wallet_submitted", data='{"a":1,\n"b":"é"}'),
    SseMessage(id="", event="message", data="\n two spaces"),
    SseMessage(id="", event="provider_pending", data="third"),
    SseMessage(id="4", event="settled", data="{}"),
]


def parse(chunks: List[bytes]) -> List[SseMessage]:
    parser = SseParser()
    out: List[SseMessage] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    return out


def test_whole_stream() -> None:
    parser = SseParser()
    assert parser.feed(STREAM) == EXPECTED
    assert parser.retry_ms == 2500  # "25x" is not all digits: ignored


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64])
def test_chunks_of_any_size(size: int) -> None:
    assert parse([STREAM[i : i + size] for i in range(0, len(STREAM), size)]) == EXPECTED


def test_every_single_cut() -> None:
    # Cuts everywhere: inside CRLF pairs, inside the 2-byte "é" and the 3-byte BOM, at field colons.
    for cut in range(1, len(STREAM)):
        assert parse([STREAM[:cut], STREAM[cut:]]) == EXPECTED, f"cut at byte {cut}"


def test_cr_then_lf_in_separate_chunks_is_one_line_end() -> None:
    assert parse([b"data: x\r", b"\n", b"\r", b"\n"]) == [SseMessage(id="", event="message", data="x")]
    # A lone CR followed later by an LF-first chunk after a non-empty chunk is two line ends.
    assert parse([b"data: x\r", b"\n", b"data: y\r", b"\r"]) == [SseMessage(id="", event="message", data="x\ny")]


def test_last_event_id_persists_and_an_empty_id_resets_it() -> None:
    messages = parse([b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"])
    assert [m.id for m in messages] == ["7", "7", ""]


def test_the_service_example_from_the_contract() -> None:
    import json

    document = json.loads((_support.PACKAGE_ROOT.parent.parent / "docs" / "openapi.json").read_text(encoding="utf-8"))
    responses = document["paths"]["/api/external/attempts/{attemptId}/events"]["get"]["responses"]
    example = responses["200"]["content"]["text/event-stream"]["example"]
    messages = SseParser().feed(example.encode("utf-8"))
    assert len(messages) == 1
    assert messages[0].event == "wallet_submitted"
    assert json.loads(messages[0].data)["eventId"] == messages[0].id
