"""signing.json: every case signed by the SDK gives exactly the vector's hash, signed message, signature, headers."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _support import load, raw  # noqa: E402
from intent_partner import (  # noqa: E402
    PartnerCredentials,
    SigningPartsV2,
    canonicalize_path,
    sha256_hex,
    sign_request,
    sign_request_v1,
    sign_request_v2,
    signing_string_v2,
    timestamp_dot_body,
)

CASES = load("signing")["cases"]


class SigningVectorsTest(unittest.TestCase):
    def test_there_are_cases_of_both_versions(self) -> None:
        versions = {c["authVersion"] for c in CASES}
        self.assertEqual(versions, {1, 2})
        self.assertGreaterEqual(len(CASES), 11)

    def test_sign_request_matches_every_case(self) -> None:
        for case in CASES:
            with self.subTest(case=case["name"]):
                body = raw(case["body"])
                signed = sign_request(
                    PartnerCredentials(case["partnerId"], case["secret"], case["authVersion"]),
                    method=case["method"],
                    path=case["path"],
                    timestamp=case["timestamp"],
                    nonce=case["nonce"],
                    body=body if case["method"] != "GET" else None,
                    idempotency_key=case["idempotencyKey"],
                )
                self.assertEqual(signed.canonical_path, case["canonicalPath"])
                self.assertEqual(signed.body_sha256, case["bodySha256"])
                self.assertEqual(signed.signed_message, raw(case["signedMessage"]))
                self.assertEqual(signed.signature, case["signature"])
                self.assertEqual(signed.headers, case["headers"])  # exactly: no header more, none less
                self.assertEqual(signed.body, body)

    def test_low_level_functions_match_every_case(self) -> None:
        for case in CASES:
            with self.subTest(case=case["name"]):
                body = raw(case["body"])
                self.assertEqual(sha256_hex(body), case["bodySha256"])
                self.assertEqual(canonicalize_path(case["path"]), case["canonicalPath"])
                if case["authVersion"] == 2:
                    parts = SigningPartsV2(
                        partner_id=case["partnerId"],
                        timestamp=case["timestamp"],
                        nonce=case["nonce"],
                        method=case["method"],
                        path=case["canonicalPath"],
                        idempotency_key=case["idempotencyKey"] or "",
                        body_sha256=case["bodySha256"],
                    )
                    self.assertEqual(signing_string_v2(parts), raw(case["signedMessage"]))
                    self.assertEqual(sign_request_v2(case["secret"], parts), case["signature"])
                else:
                    self.assertEqual(timestamp_dot_body(case["timestamp"], body), raw(case["signedMessage"]))
                    self.assertEqual(sign_request_v1(case["secret"], case["timestamp"], body), case["signature"])

    def test_a_signer_given_the_sent_path_signs_the_canonical_one(self) -> None:
        case = next(c for c in CASES if c["name"] == "v2-get-trailing-slash")
        self.assertNotEqual(case["path"], case["canonicalPath"])
        signed = sign_request(
            PartnerCredentials(case["partnerId"], case["secret"], 2),
            method="GET",
            path=case["path"],
            timestamp=case["timestamp"],
            nonce=case["nonce"],
        )
        self.assertEqual(signed.signature, case["signature"])

    def test_a_retry_keeps_key_and_bytes_and_changes_the_signature(self) -> None:
        first = next(c for c in CASES if c["name"] == "v2-post-quote")
        retry = next(c for c in CASES if c["name"] == "v2-post-quote-retry")
        self.assertEqual(first["idempotencyKey"], retry["idempotencyKey"])
        self.assertEqual(raw(first["body"]), raw(retry["body"]))
        self.assertNotEqual(first["nonce"], retry["nonce"])
        self.assertNotEqual(first["signature"], retry["signature"])

    def test_the_body_is_hashed_as_sent_not_re_serialized(self) -> None:
        import json

        for case in CASES:
            body = raw(case["body"])
            if not body:
                continue
            reserialized = json.dumps(json.loads(body), separators=(",", ":")).encode()
            if reserialized != body:
                with self.subTest(case=case["name"]):
                    self.assertNotEqual(sha256_hex(reserialized), case["bodySha256"])
                    self.assertEqual(sha256_hex(body), case["bodySha256"])

    def test_v2_needs_a_nonce(self) -> None:
        with self.assertRaises(ValueError):
            sign_request(PartnerCredentials("p", "s", 2), method="GET", path="/", timestamp="1", nonce=None)

    def test_credentials_repr_hides_the_secret(self) -> None:
        self.assertNotIn("s3cret", repr(PartnerCredentials("p", "s3cret", 2)))


if __name__ == "__main__":
    unittest.main()
