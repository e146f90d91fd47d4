"""An incremental parser of ``text/event-stream`` (WHATWG HTML, "Server-sent events", "Interpreting an event stream").

Feed it bytes as they arrive, cut anywhere (even inside a UTF-8 sequence or between CR and LF); it returns the
events completed so far. The rules it follows:

- a UTF-8 BOM at the very start is skipped; CRLF, CR and LF each end a line;
- a blank line dispatches the event; an event with an empty data buffer is not dispatched;
- ``:`` lines are comments (the service's heartbeats);
- ``field:value`` with one leading space of the value removed; a line without a colon is a field with an empty value;
- ``data`` appends the value and a LF (the last LF is removed at dispatch); ``event`` sets the type (``message``
  when empty); ``id`` sets the last event id unless the value contains NUL, and the last event id persists to later
  events; ``retry`` (ASCII digits only) sets the reconnection time in milliseconds; other fields are ignored;
- data left without a closing blank line when the stream ends is discarded.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class SseMessage:
    """One dispatched event."""

    id: str
    """The last event id when this event was dispatched ('' when none was ever set)."""
    event: str
    data: str


class SseParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pending_cr = False
        self._started = False
        self._data: List[str] = []
        self._event = ""
        self.last_event_id = ""
        self.retry_ms: Optional[int] = None
        """The last valid ``retry`` field: the reconnection time the server asks for."""

    def feed(self, chunk: bytes) -> List[SseMessage]:
        return self._feed_text(self._decoder.decode(chunk))

    def _feed_text(self, text: str) -> List[SseMessage]:
        if not self._started and text:
            self._started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        if self._pending_cr and text:
            if text.startswith("\n"):
                text = text[1:]  # the LF of a CRLF whose CR ended the previous chunk
            self._pending_cr = False
        if text:
            self._pending_cr = text.endswith("\r")
        self._buffer += text
        messages: List[SseMessage] = []
        start = 0
        i = 0
        buf = self._buffer
        n = len(buf)
        while i < n:
            ch = buf[i]
            if ch == "\r" or ch == "\n":
                message = self._line(buf[start:i])
                if message is not None:
                    messages.append(message)
                if ch == "\r" and i + 1 < n and buf[i + 1] == "\n":
                    i += 1
                start = i + 1
            i += 1
        self._buffer = buf[start:]
        return messages

    def _line(self, line: str) -> Optional[SseMessage]:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        colon = line.find(":")
        if colon == -1:
            field, value = line, ""
        else:
            field, value = line[:colon], line[colon + 1 :]
            if value.startswith(" "):
                value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value and all("0" <= c <= "9" for c in value):
                self.retry_ms = int(value)
        return None

    def _dispatch(self) -> Optional[SseMessage]:
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return SseMessage(id=self.last_event_id, event=event or "message", data="\n".join(data))
