"""Generate the bad-input corpus: pipelines mutated from the examples and from some of the
conformance cases, at every level of the YAML and of the CXL, plus the injection family.

Deterministic: the same seed gives the same cases, byte for byte. `generate()` returns
them in memory (tests/reliability/test_corpus.py runs each through `validate` and
`compile`); `python tests/reliability/gen_corpus.py --out DIR` writes each case to
DIR/<id>/ (pipeline.yaml and its data files) for inspection.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.reliability import cxl_mutations as C  # noqa: E402
from tests.reliability.doc_mutations import graph_ops, tree_ops  # noqa: E402
from tests.reliability.docwalk import cxl_sites, doc_paths  # noqa: E402
from tests.reliability.injection import PAYLOADS  # noqa: E402
from tests.reliability.injection_sites import (GROUPS, injection_positions,  # noqa: E402
                                               with_header_column)
from tests.reliability.yamltext import dump, load, quoted  # noqa: E402

SEED = 38
ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ["combine/001_combine_equi_plus_range_band", "agg/013_post_agg_lag_by_region",
               "io/040_widen_csv_to_json_include_unmapped",
               "io/044_json_nested_read_and_written_back",
               "io/119_example_multi_value_join_values_csv",
               "io/300_cull_empty_partition_by_decides_whole_input",
               "scenario/003_scenario_storefront_orders",
               "ck/104_ck_inclusive_route_group_across_outputs",
               "io/023_per_source_dlq_counts_attribute_offending_source"]
# how many cases each family draws per base pipeline
YAML_TREE_PER_BASE = 14
GRAPH_PER_BASE = 12
CXL_PER_BASE = 15


@dataclass(frozen=True)
class Base:
    name: str
    text: str
    data: Mapping[str, bytes]

    @property
    def doc(self):
        """A fresh copy of the parsed pipeline, to mutate."""
        if self.name not in _PARSED:
            _PARSED[self.name] = json.dumps(load(self.text))
        return json.loads(_PARSED[self.name])


_PARSED: dict[str, str] = {}


@dataclass(frozen=True)
class Case:
    id: str
    family: str
    pipeline: bytes
    data: Mapping[str, bytes] = field(default_factory=dict)
    inject: bool = False  # the compiled files must keep the payload inside (injection.py)

    def write(self, folder: Path) -> Path:
        """Write pipeline.yaml and the data files into `folder`; the pipeline's path."""
        folder.mkdir(parents=True, exist_ok=True)
        for rel, content in self.data.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(content)
        (folder / "out").mkdir(exist_ok=True)
        (folder / "pipeline.yaml").write_bytes(self.pipeline)
        return folder / "pipeline.yaml"


def _data(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] == "data"}


def bases() -> list[Base]:
    out = [Base(f"ex_{p.parent.name}", p.read_text(encoding="utf-8"), _data(p.parent))
           for p in sorted((ROOT / "examples").glob("*/pipeline.yaml"))]
    for rel in CONFORMANCE:
        folder = ROOT / "tests" / "conformance" / "cases" / rel
        out.append(Base("cf_" + rel.split("/")[1].split("_", 1)[0] + "_" + rel.split("/")[0],
                        (folder / "pipeline.yaml").read_text(encoding="utf-8"),
                        _data(folder)))
    return out


def yaml_tree(base: Base, rng: random.Random) -> Iterator[Case]:
    ops = tree_ops(rng)
    paths = list(doc_paths(base.doc))
    for i in range(YAML_TREE_PER_BASE):
        doc = base.doc
        holder = [doc]
        path = rng.choice(paths)
        name = rng.choice(sorted(ops))
        ops[name](doc, holder, path)
        where = ".".join(str(p) for p in path[-3:])
        yield Case(f"yaml/{base.name}/{i:02d}-{name}-{_slug(where)}", "yaml",
                   dump(holder[0]).encode("utf-8"), base.data)


def _slug(text: str) -> str:
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "_"
                   for ch in text)[:40]


def graph(base: Base, rng: random.Random, heavy: bool) -> Iterator[Case]:
    ops, many = graph_ops(rng)
    names = sorted(ops)
    picks = [rng.choice(names) for _ in range(GRAPH_PER_BASE)] + (["many_nodes"] if heavy else [])
    for i, name in enumerate(picks):
        doc = base.doc
        (many if name == "many_nodes" else ops[name])(doc)
        yield Case(f"graph/{base.name}/{i:02d}-{name}", "graph", dump(doc).encode("utf-8"),
                   base.data)


# ---- family: the CXL of every node -------------------------------------------------

def cxl(base: Base, rng: random.Random, heavy: list) -> Iterator[Case]:
    if not cxl_sites(base.doc):
        return
    for i in range(CXL_PER_BASE + len(heavy)):
        doc = base.doc
        sites = cxl_sites(doc)
        if i < CXL_PER_BASE:
            container, key, _ = rng.choice(sites)
            op = rng.choice(C.CHEAP)
        else:
            programs = [s for s in sites if s[2]] or sites
            container, key, _ = rng.choice(programs)
            op = heavy[i - CXL_PER_BASE]
        container[key] = op(container[key], rng)
        where = key if key in ("cxl", "where") else "cond"
        yield Case(f"cxl/{base.name}/{i:02d}-{op.__name__}-{where}", "cxl",
                   dump(doc).encode("utf-8"), base.data)


# ---- family: raw text and bytes ----------------------------------------------------

def _alias_bomb(levels: int, width: int) -> str:
    lines = ["_notes:", '  l0: &l0 ["lol"]']
    for i in range(1, levels):
        lines.append(f"  l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def raw(base: Base, rng: random.Random, full: bool) -> Iterator[Case]:
    text = base.text
    variants: list[tuple[str, bytes]] = []
    for i in range(3 if full else 1):
        variants.append((f"truncated{i}", text[:rng.randrange(1, len(text))].encode("utf-8")))
    variants += [("crlf", text.replace("\n", "\r\n").encode("utf-8")),
                 ("cr", text.replace("\n", "\r").encode("utf-8")),
                 ("tabs", text.replace("  ", "\t").encode("utf-8"))]
    if full:
        variants += [
            ("bom", b"\xef\xbb\xbf" + text.encode("utf-8")),
            ("utf16", text.encode("utf-16")),
            ("latin1_name", text.replace("name:", "name: caf\xe9", 1).encode("latin-1",
                                                                              "replace")),
            ("invalid_utf8", text.encode("utf-8").replace(b"name:", b"name: \xff\xfe", 1)),
            ("surrogate_bytes", text.replace("name:", "name: a\ud800", 1).encode(
                "utf-8", "surrogatepass")),
            ("nul", text.replace("\n", "\n\x00", 1).encode("utf-8")),
            ("two_documents", (text + "\n---\n" + text).encode("utf-8")),
            ("empty", b""), ("blank", b"  \n\n\t\n"), ("comment_only", b"# nothing\n"),
            ("scalar", b"hello\n"), ("list", b"- 1\n- 2\n"), ("nodes_int", b"nodes: 42\n"),
            ("python_tag", ("!!python/object/apply:os.system ['true']\n" + text).encode()),
            ("python_tag_inner", text.replace("type: csv", "type: !!python/name:os.system",
                                              1).encode()),
            ("set_tag", text.replace("type: csv", "type: !!set {a, b}", 1).encode()),
            ("custom_tag", text.replace("type: csv", "type: !custom csv", 1).encode()),
            ("merge_key", (text.replace("nodes:", "_notes: &n {type: sink}\nnodes:", 1)
                           .replace("  - type: source", "  - <<: *n\n    type: source", 1)
                           ).encode()),
            ("unknown_alias", text.replace("type: csv", "type: *nowhere", 1).encode()),
            ("duplicate_anchor", (text + "\n_notes: [&a 1, &a 2, *a]\n").encode()),
            ("unclosed_flow", text.replace("name:", "name: [a, {b", 1).encode()),
            ("stray_colon", text.replace("name:", "name: : :", 1).encode()),
            ("bad_indent", text.replace("\n  ", "\n   ", 3).encode()),
            ("directive", ("%YAML 1.1\n---\n" + text).encode()),
            ("directive_13", ("%YAML 1.3\n---\n" + text).encode()),
            ("alias_bomb_small", (text + _alias_bomb(6, 10)).encode()),
            ("alias_bomb", (text + _alias_bomb(9, 9)).encode()),
            ("deep_flow_list", (text + "_notes: " + "[" * 10000 + "]" * 10000 + "\n").encode()),
            ("deep_flow_map", (text + "_notes: " + "{a: " * 3000 + "1" + "}" * 3000 +
                               "\n").encode()),
            ("deep_block", (text + "_notes:\n" + "".join(" " * i + f"k{i}:\n"
                                                         for i in range(1, 400)) +
                            " " * 400 + "v\n").encode()),
            ("deep_in_schema", text.replace("schema:", "schema: " + "[" * 2000 + "]" * 2000 +
                                            "\n      _x:", 1).encode()),
            ("huge_notes", (text + "_notes: " + quoted("x" * 3_000_000) + "\n").encode()),
            ("many_keys", (text + "_notes:\n" + "".join(f"  k{i}: {i}\n"
                                                       for i in range(20000))).encode()),
            ("long_line", (text + "_notes: " + "y" * 2_000_000 + "\n").encode()),
        ]
    for name, content in variants:
        yield Case(f"raw/{base.name}/{name}", "raw", content, base.data)


def injection(base: Base, payloads: dict[str, str], groups: tuple[str, ...],
              singles: tuple[str, ...], alone: tuple[str, ...] = ()) -> Iterator[Case]:
    """Every payload in every position of `groups` (a case per group), and the payloads
    named in `singles` also in each position alone (those in `alone`, when given)."""
    for pname, payload in payloads.items():
        available = set(injection_positions(base.doc, payload)) | {"csv_header"}
        sets = [(g, [p for p in GROUPS[g] if p in available]) for g in groups]
        if pname in singles:
            sets += [(p, [p]) for p in sorted(available) if not alone or p in alone]
        for label, positions in sets:
            doc, data = base.doc, base.data
            put = injection_positions(doc, payload)
            for position in positions:
                if position == "csv_header":
                    data = with_header_column(base.data, payload)
                else:
                    put[position]()
            yield Case(f"inject/{base.name}/{label}-{pname}", "inject",
                       dump(doc).encode("utf-8"), data, inject=True)


# ---- the corpus ----------------------------------------------------------------------

def generate(seed: int = SEED) -> list[Case]:
    rng = random.Random(seed)
    all_bases = bases()
    by_name = {b.name: b for b in all_bases}
    heavy = list(C.HEAVY)
    cases: list[Case] = []
    for i, base in enumerate(all_bases):
        cases += yaml_tree(base, rng)
        cases += graph(base, rng, heavy=i in (0, 3))
        # the deep and long CXL shapes, dealt out over the bases
        share = heavy[i::len(all_bases)]
        cases += cxl(base, rng, share)
        cases += raw(base, rng, full=i == 0)
    cases += injection(by_name["ex_employee_tiers"], PAYLOADS, tuple(GROUPS),
                       ("drop", "backslash_drop"))
    cases += injection(by_name["ex_order_routing"], PAYLOADS, ("names", "columns"),
                       ("drop",), alone=("route_branch", "ck_column"))
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write every case to OUT/<id>/")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--family", help="only this family (yaml, graph, cxl, raw, inject)")
    args = parser.parse_args(argv)
    cases = [c for c in generate(args.seed) if args.family in (None, c.family)]
    for case in cases:
        if args.out:
            case.write(args.out / case.id)
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.family] = counts.get(case.family, 0) + 1
    print(f"{len(cases)} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
