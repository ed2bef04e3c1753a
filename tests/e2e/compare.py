"""Row comparison helpers for end-to-end tests."""

from __future__ import annotations

import csv
import json
from pathlib import Path


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def assert_csv_equal(produced: Path, expected: Path, ordered: bool = True) -> None:
    p_head, p_rows = read_csv(produced)
    e_head, e_rows = read_csv(expected)
    assert p_head == e_head
    if not ordered:
        p_rows, e_rows = sorted(p_rows), sorted(e_rows)
    assert p_rows == e_rows


def assert_csv_columns(produced: Path, expected: Path) -> None:
    """Compare only the expected file's columns (the DLQ's id and timestamp vary)."""
    p_head, p_rows = read_csv(produced)
    e_head, e_rows = read_csv(expected)
    index = [p_head.index(c) for c in e_head]
    assert sorted([r[i] for i in index] for r in p_rows) == sorted(e_rows)


def read_ndjson(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
