"""paths.json: every accepted target gives its canonical form; every refused one the same reason, status, code."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _support import load  # noqa: E402
from intent_partner import InvalidPathError, canonicalize_path, path_segment  # noqa: E402

CASES = load("paths")["cases"]


class PathVectorsTest(unittest.TestCase):
    def test_every_case(self) -> None:
        self.assertGreaterEqual(len(CASES), 21)
        for case in CASES:
            with self.subTest(input=case["input"], description=case["description"]):
                if case["ok"]:
                    self.assertEqual(canonicalize_path(case["input"]), case["canonical"])
                    # canonical is a fixed point
                    self.assertEqual(canonicalize_path(case["canonical"]), case["canonical"])
                else:
                    with self.assertRaises(InvalidPathError) as caught:
                        canonicalize_path(case["input"])
                    self.assertEqual(caught.exception.reason, case["reason"])
                    self.assertEqual(caught.exception.status, case["status"])
                    self.assertEqual(caught.exception.code, case["code"])

    def test_path_segment(self) -> None:
        self.assertEqual(path_segment("at_1:2@x~y"), "at_1:2@x~y")
        for bad in ["", ".", "..", "a/b", "a%2Fb", "a b", "a?b", "a#b", "pïng"]:
            with self.subTest(segment=bad), self.assertRaises(ValueError):
                path_segment(bad)


if __name__ == "__main__":
    unittest.main()
