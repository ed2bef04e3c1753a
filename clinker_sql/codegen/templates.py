"""Jinja environment for templates/ and macros/.

Templates only ever receive `Sql` values: fragments that sqlglot produced. The
environment's `finalize` refuses anything else, so no user text can be pasted
into a statement without going through sqlglot's quoting.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
from sqlglot import exp

from clinker_sql import sqlbuild as S


class Sql(str):
    """A SQL fragment rendered by sqlglot (safe to place in a template)."""


def sql(e: exp.Expression) -> Sql:
    return Sql(S.to_sql(e))


@lru_cache(maxsize=4096)
def ident(name: str) -> Sql:
    return Sql(S.to_sql(S.ident(name)))


@lru_cache(maxsize=1024)
def literal(value: str) -> Sql:
    return Sql(S.to_sql(S.string(value)))


def _finalize(value: object) -> object:
    if isinstance(value, (Sql, int, bool)) or value is None:
        return "" if value is None else value
    raise TypeError(f"template received unescaped text {value!r}; wrap it with sql()/ident()")


def _search_paths() -> list[str]:
    pkg = Path(__file__).resolve().parent.parent
    repo = pkg.parent
    paths = []
    for name in ("templates", "macros"):
        for base in (pkg, repo):  # installed wheel first, then a source checkout
            candidate = base / name
            if candidate.is_dir():
                paths.append(str(candidate))
                break
    return paths


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    paths = _search_paths()
    if len(paths) != 2:
        raise RuntimeError("clinker-sql templates/ and macros/ folders were not found; "
                           "reinstall the package")
    return jinja2.Environment(loader=jinja2.FileSystemLoader(paths), finalize=_finalize,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=False, autoescape=False)


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context).strip()


def select_list(items: list[tuple[exp.Expression, str]]) -> Sql:
    """`expression AS name` items, one per line, for a SELECT list; a column kept under its
    own name is just the column."""
    return Sql(",\n  ".join(ident(name) if is_column(e, name) else f"{sql(e)} AS {ident(name)}"
                            for e, name in items))


def is_column(e: exp.Expression, name: str) -> bool:
    """`e` is the bare column `name` (no table, no expression around it)."""
    return type(e) is exp.Column and not e.args.get("table") and e.this.this == name
