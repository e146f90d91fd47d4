"""docs/openapi.json (read at test time) names exactly the operations OPERATIONS maps, and both clients have each."""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support  # noqa: E402,F401
from intent_partner import OPERATIONS, AsyncClient, Client  # noqa: E402

OPENAPI = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"


def operation_ids() -> list:
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    return [op["operationId"] for item in document["paths"].values() for op in item.values() if "operationId" in op]


def test_every_operation_of_the_contract_is_mapped_and_nothing_else() -> None:
    ids = operation_ids()
    assert len(ids) == len(set(ids)) == 12
    assert set(OPERATIONS) == set(ids)


def test_both_clients_have_each_method() -> None:
    for operation_id, name in OPERATIONS.items():
        sync_method = getattr(Client, name, None)
        async_method = getattr(AsyncClient, name, None)
        assert callable(sync_method), f"Client lacks {name} ({operation_id})"
        assert callable(async_method), f"AsyncClient lacks {name} ({operation_id})"
        assert not inspect.iscoroutinefunction(sync_method) and not inspect.isasyncgenfunction(sync_method)
        assert inspect.iscoroutinefunction(async_method) or inspect.isasyncgenfunction(async_method), name
        # Same parameters on both (the surface is the same).
        assert list(inspect.signature(sync_method).parameters) == list(inspect.signature(async_method).parameters)


def test_method_names_are_the_snake_case_of_the_operation_ids() -> None:
    import re

    for operation_id, name in OPERATIONS.items():
        assert name == re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()
