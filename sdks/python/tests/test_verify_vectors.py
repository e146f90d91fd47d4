"""verify.json: every refusal the service answers is a code the SDK surfaces as a typed error, and every accepted
request's signature is the one the SDK's signer makes for it (with the partner's current or previous secret)."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _support import load, raw  # noqa: E402
from intent_partner import (  # noqa: E402
    ERROR_CODES,
    AuthenticationError,
    PartnerCredentials,
    parse_api_error,
    sign_request,
)

DATA = load("verify")
PARTNERS = {p["partnerId"]: p for p in DATA["partners"]}


def _header(headers: list, name: str):  # type: ignore[no-untyped-def]
    values = [v for k, v in headers if k.lower() == name]
    return values[0] if values else None


class VerifyVectorsTest(unittest.TestCase):
    def test_every_refusal_is_a_known_typed_error(self) -> None:
        refusals = [c for c in DATA["cases"] if not c["expected"]["ok"]]
        self.assertGreater(len(refusals), 0)
        for case in refusals:
            expected = case["expected"]
            with self.subTest(case=case["name"]):
                self.assertIn(expected["code"], ERROR_CODES)
                self.assertEqual(ERROR_CODES[expected["code"]][0], expected["status"])
                err = parse_api_error(expected["status"], {"code": expected["code"], "message": case["description"]})
                self.assertIsInstance(err, AuthenticationError)

    def test_every_accepted_request_is_what_the_sdk_signs(self) -> None:
        accepted = [c for c in DATA["cases"] if c["expected"]["ok"]]
        self.assertGreater(len(accepted), 0)
        for case in accepted:
            expected, request = case["expected"], case["request"]
            headers = request["headers"]
            partner = PARTNERS[expected["partnerId"]]
            secret = partner["secret"] if expected["secret"] == "current" else partner["previousSecret"]
            with self.subTest(case=case["name"]):
                signed = sign_request(
                    PartnerCredentials(partner["partnerId"], secret, expected["authVersion"]),
                    method=request["method"],
                    path=request["path"],
                    timestamp=_header(headers, "x-timestamp"),
                    nonce=_header(headers, "x-nonce"),
                    body=raw(request["body"]),
                    idempotency_key=_header(headers, "idempotency-key"),
                )
                self.assertEqual(signed.canonical_path, expected["canonicalPath"])
                self.assertEqual(signed.signature, _header(headers, "x-signature"))
                for name, value in signed.headers.items():
                    self.assertEqual(_header(headers, name), value, name)


if __name__ == "__main__":
    unittest.main()
