"""The long form of each diagnostic code: what it means, a wrong example, the fix
(`clinker-sql explain --code X`), read from codes.yaml next to this module."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

from clinker_sql.diagnostics import CODES, CodeInfo, fail


@dataclass(frozen=True)
class Explanation:
    info: CodeInfo
    meaning: str
    wrong: str
    fix: str


@lru_cache(maxsize=1)
def _long_forms() -> dict[str, dict[str, str]]:
    text = resources.files("clinker_sql.inspect").joinpath("codes.yaml").read_text("utf-8")
    return yaml.safe_load(text)


def explanation(code: str) -> Explanation:
    info = CODES.get(code) or next((i for c, i in CODES.items() if c.upper() == code.upper()),
                                   None)
    if info is None:
        raise fail("CS043", f"unknown diagnostic code '{code}'")
    entry = _long_forms().get(info.code) or {}
    return Explanation(info, entry.get("meaning", "").strip(), entry.get("wrong", "").rstrip(),
                       entry.get("fix", "").rstrip())


def render(e: Explanation) -> str:
    """The text `explain --code` prints."""
    kind = "warning" if e.info.code.startswith("W") else "error"
    lines = [f"{kind}[{e.info.code}]: {e.info.summary}", f"exit code: {e.info.exit_code}", ""]
    if e.meaning:
        lines += [e.meaning, ""]
    if e.wrong:
        lines += ["Wrong:", *("    " + line for line in e.wrong.splitlines()), ""]
    if e.fix:
        lines += ["Fix:", *("    " + line for line in e.fix.splitlines()), ""]
    if e.info.hint:
        lines.append(f"hint: {e.info.hint}")
    return "\n".join(lines).rstrip() + "\n"


def listing() -> str:
    width = max(len(c) for c in CODES)
    return "".join(f"{info.code:<{width}}  {info.summary}\n" for info in CODES.values())
