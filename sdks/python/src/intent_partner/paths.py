"""Path canonicalisation: the one spelling of a request target that the service signs and routes.

Mirrors the service's ``canonicalizeRequestPath``: anything a proxy or framework could decode or collapse into
another path is refused, never normalised. The only change ever made is dropping one trailing slash.
"""

from __future__ import annotations

import re
from typing import Literal

PathRefusal = Literal[
    "not_absolute",
    "query_string",
    "fragment",
    "percent_encoded",
    "backslash",
    "invalid_character",
    "empty_segment",
    "dot_segment",
]

# RFC 3986 pchar without pct-encoded, plus "/".
_PATH_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/]*")
# One path segment (a resource id) that needs no escaping.
_SEGMENT = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@]+")


class InvalidPathError(ValueError):
    """A request target the service would refuse with 401 ``external_auth_request_invalid``."""

    status: int = 401
    code: str = "external_auth_request_invalid"

    def __init__(self, path: str, reason: PathRefusal) -> None:
        super().__init__(f"request path refused ({reason}): {path!r}")
        self.path = path
        self.reason: PathRefusal = reason


def canonicalize_path(path: str) -> str:
    """Returns the canonical form of ``path`` (the form to sign), or raises :class:`InvalidPathError`."""
    if not path.startswith("/"):
        raise InvalidPathError(path, "not_absolute")
    if "?" in path:
        raise InvalidPathError(path, "query_string")
    if "#" in path:
        raise InvalidPathError(path, "fragment")
    if "%" in path:
        raise InvalidPathError(path, "percent_encoded")
    if "\\" in path:
        raise InvalidPathError(path, "backslash")
    if not _PATH_CHARACTERS.fullmatch(path):
        raise InvalidPathError(path, "invalid_character")
    # Checked before the trailing slash is dropped: "//" anywhere is refused, never shortened.
    if "//" in path:
        raise InvalidPathError(path, "empty_segment")
    canonical = path[:-1] if len(path) > 1 and path.endswith("/") else path
    if canonical == "/":
        return canonical
    for segment in canonical[1:].split("/"):
        if segment in (".", ".."):
            raise InvalidPathError(path, "dot_segment")
    return canonical


def path_segment(resource_id: str) -> str:
    """Checks that a resource id can be put into a path as one segment, unescaped; raises ``ValueError`` if not."""
    if not _SEGMENT.fullmatch(resource_id) or resource_id in (".", ".."):
        raise ValueError(f"not a valid resource id for a path segment: {resource_id!r}")
    return resource_id
