"""codegen/names.py: every name the compiler adds is defined once and explained in the
legend; the node modules build from these constants (no second definition)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from clinker_sql.codegen import names
from clinker_sql.codegen.names import LEGEND

CODEGEN = Path(names.__file__).parent


def _constants() -> dict[str, str]:
    return {k: v for k, v in vars(names).items()
            if k.isupper() and not k.startswith("_") and isinstance(v, str)}


def test_every_constant_is_in_the_legend():
    shown = [n.name for n in LEGEND]
    missing = [v for v in _constants().values()
               if not any(s == v or s.startswith(v) for s in shown)]
    assert missing == []


def test_the_legend_is_one_line_each_and_has_no_duplicate():
    assert len({(n.name, n.kind, n.description) for n in LEGEND}) == len(LEGEND)
    assert len({(n.name, n.description) for n in LEGEND if n.kind != "suffix"}) == \
        len({n.name for n in LEGEND if n.kind != "suffix"})
    for n in LEGEND:
        assert n.kind in ("column", "suffix", "view")
        assert n.description and "\n" not in n.description and len(n.description) <= 90
        if n.kind == "suffix":
            assert n.name.startswith("<node>.")
        else:
            assert n.name.startswith("$")


def test_no_codegen_module_defines_a_name_again():
    values = set(_constants().values())
    again = []
    for path in sorted(CODEGEN.glob("*.py")):
        if path.name == "names.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Constant,
                                                                        ast.Tuple)):
                consts = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                if all(isinstance(c, ast.Constant) and c.value in values for c in consts):
                    again += [f"{path.name}: {c.value}" for c in consts]
    assert again == [], again


def test_the_helpers_build_the_documented_forms():
    assert names.ck_column("k") == "$ck.k"
    assert names.aggregate_ck("totals") == "$ck.aggregate.totals"
    assert re.fullmatch(r"\$key\.\d+", names.index_key(3))
