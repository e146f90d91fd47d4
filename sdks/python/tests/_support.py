"""Test support: puts ``src`` on sys.path and loads the shared vectors from the repo (``sdks/vectors``), no copies.

``INTENT_VECTORS_DIR`` points the tests at another directory (e.g. a tampered copy, to see them fail).
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path
from typing import Any, Dict

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # sdks/python
SRC = PACKAGE_ROOT / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

VECTORS_DIR = Path(os.environ.get("INTENT_VECTORS_DIR") or PACKAGE_ROOT.parent / "vectors")


def load(name: str) -> Dict[str, Any]:
    """One vectors file, e.g. ``load("signing")``; fails loudly when it is missing."""
    path = VECTORS_DIR / f"{name}.json"
    with path.open("rb") as f:
        data: Dict[str, Any] = json.load(f)
    if data.get("vectorsVersion") != 1:
        raise AssertionError(f"{path}: vectorsVersion {data.get('vectorsVersion')!r}, these tests know version 1")
    return data


def raw(value: Dict[str, str]) -> bytes:
    """The bytes of a ``{"base64", "utf8"}`` object: base64 is the truth."""
    return base64.b64decode(value["base64"], validate=True)
