"""models.py is what tools/gen_models.py generates from docs/openapi.json now (no drift), and it is usable."""

from __future__ import annotations

import importlib.util
import sys
import typing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support  # noqa: E402,F401
from intent_partner import models  # noqa: E402

PACKAGE = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("gen_models", PACKAGE / "tools" / "gen_models.py")
assert spec and spec.loader
gen_models = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_models)


def test_models_py_is_what_the_generator_makes_from_the_contract() -> None:
    expected = gen_models.render()
    current = (PACKAGE / "src" / "intent_partner" / "models.py").read_text(encoding="utf-8")
    assert current == expected, "models.py is stale: run python3 sdks/python/tools/gen_models.py"


def test_a_changed_contract_changes_the_models(tmp_path: Path) -> None:
    import json

    document = json.loads(gen_models.OPENAPI.read_text(encoding="utf-8"))
    document["components"]["schemas"]["PingResponse"]["properties"]["extra"] = {"type": "string"}
    changed = tmp_path / "openapi.json"
    changed.write_text(json.dumps(document), encoding="utf-8")
    assert gen_models.render(changed) != gen_models.render()


def test_every_schema_is_a_model_and_each_resolves() -> None:
    document_schemas = gen_models.Generator(
        __import__("json").loads(gen_models.OPENAPI.read_text(encoding="utf-8"))
    ).schemas
    for name in document_schemas:
        assert name in models.__all__, name
        value = getattr(models, name)
        if isinstance(value, type):
            typing.get_type_hints(value)  # every forward reference resolves


def test_required_optional_nullable_and_amounts() -> None:
    hints = typing.get_type_hints(models.SourceInput)
    assert hints["amount"] is str  # raw token amounts are decimal strings, never floats
    assert models.QuoteRequest.__required_keys__ == {"walletAddress", "sources"}
    assert "recipient" in models.QuoteRequest.__optional_keys__
    assert typing.get_args(models.AttemptStatus) == (
        "prepared",
        "wallet_submitted",
        "provider_pending",
        "settled",
        "failed",
        "expired",
    )
    submitted_at = typing.get_type_hints(models.WebhookEvent)["submittedAt"]
    assert type(None) in typing.get_args(submitted_at)  # ["integer", "null"] -> Optional[int]
    assert models.WebhookRecoverRequest.__required_keys__ == {"from", "to"}  # a keyword as a key: functional form
    assert models.QuoteRequest.__doc__ and "Body of POST /intents/quote" in models.QuoteRequest.__doc__
