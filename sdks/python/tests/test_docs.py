"""docs/partners/python.md quotes quickstart.py: every Python block marked <!-- quickstart.py --> is in the file,
line for line (at any indentation), so the page cannot drift from the program the harness runs."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _support import PACKAGE_ROOT  # noqa: E402

REPO = PACKAGE_ROOT.parent.parent
DOC = REPO / "docs" / "partners" / "python.md"
QUICKSTART = PACKAGE_ROOT / "examples" / "quickstart.py"
MARKED = re.compile(r"<!-- quickstart\.py -->\s*\n```python\n(.*?)\n```", re.S)


def quoted_blocks() -> List[str]:
    return MARKED.findall(DOC.read_text(encoding="utf-8"))


def contains(program: str, block: str) -> bool:
    lines = block.split("\n")
    indent = min(len(line) - len(line.lstrip(" ")) for line in lines if line.strip())
    dedented = [line[indent:] for line in lines]
    for prefix in range(0, 17, 4):
        candidate = "\n".join(" " * prefix + line if line else "" for line in dedented)
        if candidate in program:
            return True
    return False


def test_every_quoted_block_is_in_quickstart_py() -> None:
    blocks = quoted_blocks()
    assert len(blocks) >= 10, "the page quotes the program step by step"
    program = QUICKSTART.read_text(encoding="utf-8")
    for block in blocks:
        assert contains(program, block), f"docs/partners/python.md quotes lines quickstart.py does not have:\n{block}"


def test_the_check_catches_a_changed_line() -> None:
    program = QUICKSTART.read_text(encoding="utf-8")
    block = quoted_blocks()[1]
    assert contains(program, block)
    assert not contains(program, block.replace("client.ping()", "client.ping(timeout=1)"))


def test_every_operation_is_shown_in_the_quickstart() -> None:
    import json

    program = QUICKSTART.read_text(encoding="utf-8")
    document = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values()]
    for operation_id in ids:
        assert f'"op {operation_id} ok' in program or f"op {operation_id} ok" in program, operation_id
