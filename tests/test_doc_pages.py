"""The documentation keeps matching the code: the status page lists every CS001 refusal, and
every link between the README and the pages under docs/ leads to a file that exists."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "clinker_sql"
STATUS = REPO / "docs" / "status.md"
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def refusal_sites(package: Path = PACKAGE) -> Counter[str]:
    """Per module (relative to the package), the places that refuse a feature with CS001:
    a `raise` whose diagnostic code is "CS001", and each `refuse(keys, message)` call (the
    loader's way of refusing a list of keys at once)."""
    sites: Counter[str] = Counter()
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and node.exc.args and _names_cs001(node.exc.args[0])):
                sites[module] += 1
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "refuse"):
                sites[module] += 1
    return sites


def _names_cs001(code: ast.expr) -> bool:
    return any(isinstance(n, ast.Constant) and n.value == "CS001" for n in ast.walk(code))


def documented_refusals(text: str) -> Counter[str]:
    """Per module, the rows of the status page's refusal table (`| `module` | what |`)."""
    section = text.split("## Refused with `CS001`", 1)[1].split("\n## ", 1)[0]
    return Counter(re.findall(r"^\| `([\w/]+\.py)` \|", section, re.M))


def test_every_cs001_refusal_in_the_code_has_a_row_on_the_status_page():
    in_code = refusal_sites()
    in_docs = documented_refusals(STATUS.read_text(encoding="utf-8"))
    assert sum(in_code.values()) > 50  # the scan finds the refusals at all
    missing = {m: n - in_docs[m] for m, n in in_code.items() if n > in_docs[m]}
    extra = {m: n - in_code[m] for m, n in in_docs.items() if n > in_code[m]}
    assert not missing, f"refusals without a row in docs/status.md (module: count): {missing}"
    assert not extra, f"rows in docs/status.md for refusals the code no longer has: {extra}"


def test_the_refusal_scan_sees_each_form(tmp_path):
    (tmp_path / "a.py").write_text(
        'def f(c, x):\n'
        '    raise fail("CS001", "one", None)\n'
        '    raise error("CS001" if x else "E000", "two", None)\n'
        '    raise fail("E200", "not a refusal", None)\n'
        '    c.refuse(("k",), "three {key}")\n', encoding="utf-8")
    assert refusal_sites(tmp_path) == Counter({"a.py": 3})
    table = "## Refused with `CS001`\n\n| `a.py` | x |\n| `a.py` | y |\n\n## Next\n| `b.py` | z |\n"
    assert documented_refusals(table) == Counter({"a.py": 2})


def test_links_between_the_pages_lead_to_files_that_exist():
    broken = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, broken


def test_the_readme_links_every_page_under_docs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for page in (REPO / "docs").glob("*.md"):
        assert f"](docs/{page.name})" in readme, f"the README does not link docs/{page.name}"


def test_the_readme_stays_short():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 320
