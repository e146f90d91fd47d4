"""webhooks.json: the verifier accepts exactly the ok cases and refuses the others with the stated reason."""

from __future__ import annotations

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _support import load, raw  # noqa: E402
from intent_partner import WebhookRejection, WebhookVerificationError, verify_webhook  # noqa: E402

CASES = load("webhooks")["cases"]
REASONS = {
    "header_missing",
    "header_duplicated",
    "partner_mismatch",
    "timestamp_invalid",
    "timestamp_expired",
    "signature_invalid",
    "body_invalid",
    "event_id_mismatch",
}


def _verify(case: dict, headers: object = None):  # type: ignore[no-untyped-def]
    v = case["verifier"]
    return verify_webhook(
        raw(case["body"]),
        case["headers"] if headers is None else headers,  # type: ignore[arg-type]
        partner_id=v["partnerId"],
        secrets=v["secrets"],
        now_ms=v["nowMs"],
        tolerance_ms=v["toleranceMs"],
    )


class WebhookVectorsTest(unittest.TestCase):
    def test_reasons_are_the_sdk_enum(self) -> None:
        self.assertEqual({r.value for r in WebhookRejection}, REASONS)

    def test_every_case(self) -> None:
        self.assertGreaterEqual(len(CASES), 18)
        for case in CASES:
            with self.subTest(case=case["name"]):
                expected = case["expected"]
                if expected["ok"]:
                    event = _verify(case)
                    self.assertEqual(event.event_id, expected["eventId"])
                    self.assertEqual(event.payload, json.loads(raw(case["body"])))
                else:
                    with self.assertRaises(WebhookVerificationError) as caught:
                        _verify(case)
                    self.assertEqual(caught.exception.reason, WebhookRejection(expected["reason"]))
                    self.assertEqual(caught.exception.reason.value, expected["reason"])

    def test_every_case_as_ordered_pairs_with_any_name_case(self) -> None:
        """The same verdicts from WSGI-style ``[(name, value)]`` headers (repeated names kept), names upper-cased."""
        for case in CASES:
            pairs = []
            for name, value in case["headers"].items():
                for v in value if isinstance(value, list) else [value]:
                    pairs.append((name.upper(), v))
            with self.subTest(case=case["name"]):
                expected = case["expected"]
                if expected["ok"]:
                    self.assertEqual(_verify(case, pairs).event_id, expected["eventId"])
                else:
                    with self.assertRaises(WebhookVerificationError) as caught:
                        _verify(case, pairs)
                    self.assertEqual(caught.exception.reason.value, expected["reason"])

    def test_the_vectors_cover_rotation_and_every_reason_but_body_invalid(self) -> None:
        seen = {c["expected"].get("reason") for c in CASES if not c["expected"]["ok"]}
        self.assertEqual(REASONS - seen, {"body_invalid"})
        self.assertTrue(any(len(c["verifier"]["secrets"]) > 1 for c in CASES if c["expected"]["ok"]))

    def test_body_invalid(self) -> None:
        """No vector has it (a signed body that is not an event): signed here with the SDK's own signer."""
        from intent_partner import sign_webhook

        base = next(c for c in CASES if c["name"] == "valid")
        v = base["verifier"]
        for body in [b"[]", b"not json", b'{"event":"settled"}', b"\xff"]:
            headers = dict(base["headers"])
            headers["X-Signature"] = sign_webhook(v["secrets"][0], headers["X-Timestamp"], body)
            with self.subTest(body=body), self.assertRaises(WebhookVerificationError) as caught:
                verify_webhook(body, headers, partner_id=v["partnerId"], secrets=v["secrets"], now_ms=v["nowMs"])
            self.assertEqual(caught.exception.reason, WebhookRejection.BODY_INVALID)

    def test_a_single_secret_string_is_accepted(self) -> None:
        case = next(c for c in CASES if c["name"] == "valid")
        v = case["verifier"]
        event = verify_webhook(
            raw(case["body"]), case["headers"], partner_id=v["partnerId"], secrets=v["secrets"][0], now_ms=v["nowMs"]
        )
        self.assertEqual(event.event_id, case["expected"]["eventId"])


if __name__ == "__main__":
    unittest.main()
