"""errors.json: every code is known to the SDK, classified, and its example parses into that class intact."""

from __future__ import annotations

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _support import load  # noqa: E402
from intent_partner import (  # noqa: E402
    ERROR_CODES,
    ApiError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    RateLimitedError,
    RequestRejectedError,
    ServerError,
    ValidationError,
    parse_api_error,
)

DATA = load("errors")
CASES = DATA["cases"]


class ErrorVectorsTest(unittest.TestCase):
    def test_the_code_list_is_exactly_the_vectors(self) -> None:
        codes = [c["code"] for c in CASES]
        self.assertEqual(len(codes), len(set(codes)), "one case per code")
        self.assertEqual(set(ERROR_CODES) - set(codes), set(), "codes the SDK knows but the API no longer has")
        self.assertEqual(set(codes) - set(ERROR_CODES), set(), "codes in the vectors the SDK does not know")

    def test_every_code_has_its_status_and_a_family_class(self) -> None:
        for case in CASES:
            with self.subTest(code=case["code"]):
                status, cls = ERROR_CODES[case["code"]]
                self.assertEqual(status, case["status"])
                self.assertTrue(issubclass(cls, ApiError))
                self.assertIsNot(cls, ApiError)

    def test_families_follow_the_status(self) -> None:
        for code, (status, cls) in ERROR_CODES.items():
            with self.subTest(code=code):
                if cls is AuthenticationError:
                    self.assertTrue(code.startswith("external_auth_") or code == "partner_disabled")
                elif cls is NotFoundError:
                    self.assertEqual(status, 404)
                elif cls is ConflictError:
                    self.assertIn(status, (409, 422))
                elif cls is RateLimitedError:
                    self.assertEqual(status, 429)
                elif cls is ServerError:
                    self.assertTrue(status >= 500 or status == 408)
                elif cls is ValidationError:
                    self.assertEqual(status, 400)
                else:
                    self.assertIs(cls, RequestRejectedError)
                    self.assertIn(status, (400, 405, 413, 415, 431))
                # The same six families as the TypeScript and Go SDKs.
                self.assertIn(cls.family, ("auth", "validation", "not_found", "conflict", "rate_limited", "server"))

    def test_every_example_parses_into_its_typed_error(self) -> None:
        for case in CASES:
            example = case["example"]
            for form, body in [
                ("bytes", json.dumps(example).encode()),
                ("str", json.dumps(example)),
                ("dict", example),
            ]:
                with self.subTest(code=case["code"], form=form):
                    err = parse_api_error(case["status"], body)
                    self.assertIsInstance(err, ERROR_CODES[case["code"]][1])
                    self.assertEqual(err.code, case["code"])
                    self.assertEqual(err.status, case["status"])
                    self.assertEqual(err.message, example["message"])
                    self.assertEqual(err.path, example.get("path"))
                    self.assertEqual(err.request_id, example.get("requestId"))
                    self.assertEqual(err.details, example.get("details", []))
                    self.assertEqual(err.body, example)

    def test_field_errors_keep_details(self) -> None:
        fe = DATA["fieldErrors"]
        err = parse_api_error(fe["status"], json.dumps(fe["response"]).encode())
        self.assertIsInstance(err, ValidationError)
        self.assertEqual(err.code, fe["response"]["code"])
        self.assertEqual(err.details, fe["response"]["details"])
        self.assertEqual(
            [(f.code, f.field, f.message) for f in err.field_errors],
            [(d["code"], d.get("field"), d["message"]) for d in fe["response"]["details"]],
        )
        self.assertEqual(err.request_id, fe["response"]["requestId"])

    def test_unknown_fields_and_codes_are_tolerated(self) -> None:
        example = dict(CASES[0]["example"], somethingNew={"x": 1})
        err = parse_api_error(CASES[0]["status"], example)
        self.assertEqual(err.body["somethingNew"], {"x": 1})
        for status, cls in [
            (401, AuthenticationError),
            (404, NotFoundError),
            (409, ConflictError),
            (429, RateLimitedError),
            (503, ServerError),
            (400, ValidationError),
            (415, RequestRejectedError),
            (408, ServerError),
        ]:
            with self.subTest(status=status):
                err = parse_api_error(status, {"code": "code_from_the_future", "message": "m"})
                self.assertIsInstance(err, cls)
                self.assertEqual(err.code, "code_from_the_future")

    def test_a_body_that_is_not_an_envelope(self) -> None:
        err = parse_api_error(502, b"<html>Bad Gateway</html>", retry_after="3")
        self.assertIsInstance(err, ServerError)
        self.assertEqual(err.code, "http_502")
        self.assertEqual(err.retry_after_seconds, 3.0)
        self.assertIsNone(err.request_id)
        self.assertIsInstance(parse_api_error(500, None), ServerError)


if __name__ == "__main__":
    unittest.main()
