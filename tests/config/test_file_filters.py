"""A source's file filters (config/file_filters.py, config/discovery.py), as Clinker's
discovery applies them: the bounds of sizes and modification times, a regex walk, and
the filters' own checks (E212-E215). The pipelines that read the files are conformance
cases io/490-492 and diag/180-184."""

from __future__ import annotations

import os
import time

import pytest

from clinker_sql.config.discovery import matched_files
from clinker_sql.config.model import FileFilters
from clinker_sql.config.parse import parse_pipeline
from clinker_sql.diagnostics import DiagnosticError

SOURCE = """\
pipeline:
  name: p
nodes:
  - type: source
    name: src
    config:
      name: src
      type: csv
      glob: ./data/*.csv
KEYS
      schema:
        - { name: id, type: int }
  - type: sink
    name: out
    input: src
    config:
      name: out
      type: csv
      path: ./out.csv
"""


def _filters(keys: str) -> FileFilters:
    return parse_pipeline(SOURCE.replace("KEYS", keys), "p.yaml").nodes[0].config.filters


def _write(path, body: str, age: float = 0.0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_size_and_time_bounds_include_their_limits(tmp_path):
    hour = 3600
    _write(tmp_path / "old.csv", "12345", age=3 * hour)
    _write(tmp_path / "mid.csv", "1234567890", age=1.5 * hour)
    _write(tmp_path / "new.csv", "123", age=0)

    def names(**kw):
        return [p.name for p in matched_files("glob", ["*.csv"], tmp_path, FileFilters(**kw))]

    assert names(min_size=5) == ["mid.csv", "old.csv"]  # 5 bytes is not under min 5
    assert names(max_size=5) == ["new.csv", "old.csv"]
    assert names(modified_after=time.time() - 2 * hour) == ["mid.csv", "new.csv"]
    assert names(modified_before=time.time() - hour) == ["mid.csv", "old.csv"]
    assert names(exclude=("m*",)) == ["new.csv", "old.csv"]


def test_a_regex_walks_the_folder_and_skips_symbolic_links(tmp_path):
    _write(tmp_path / "a.csv", "x")
    _write(tmp_path / "sub" / "b.csv", "x")
    (tmp_path / "link.csv").symlink_to(tmp_path / "a.csv")
    (tmp_path / "linked").symlink_to(tmp_path / "sub")
    found = matched_files("regex", [r"\.csv$"], tmp_path, FileFilters(regex=r"\.csv$"))
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["a.csv", "sub/b.csv"]
    flat = matched_files("regex", [r"\.csv$"], tmp_path,
                         FileFilters(regex=r"\.csv$", recursive=False))
    assert [p.name for p in flat] == ["a.csv"]


def test_sizes_and_time_bounds_are_read_as_clinker_reads_them():
    f = _filters('      min_size: 10KB\n      max_size: " 2 MB "\n'
                 '      modified_after: "2h"\n      modified_before: "2026-05-01T00:00:00Z"')
    assert (f.min_size, f.max_size) == (10_000, 2_000_000)
    assert abs(f.modified_after - (time.time() - 7200)) < 60
    assert f.modified_before == 1777593600.0
    assert _filters("      max_size: 7").max_size == 7
    assert _filters("      exclude: ['*.tmp']").exclude == ("*.tmp",)


@pytest.mark.parametrize("keys,code", [
    ("      min_size: -1", "E215"), ("      max_size: 1TB", "E215"),
    ("      modified_after: 5w", "E214"), ("      modified_before: '2026-05-01'", "E214"),
    ("      exclude: ['[ab']", "E212")])
def test_bad_filters_are_coded(keys, code):
    with pytest.raises(DiagnosticError) as info:
        _filters(keys)
    assert info.value.diagnostics[0].code == code
