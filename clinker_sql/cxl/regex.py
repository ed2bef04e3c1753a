"""Rust `regex` patterns -> Java patterns as Spark runs them."""

from __future__ import annotations

import re

from clinker_sql.cxl import ast as a
from clinker_sql.cxl.lower import error


def java_regex(pattern: str, node: a.Expr) -> str:
    """Unicode-aware classes like Rust (`(?U)`), named groups in Java's spelling."""
    try:
        re.compile(pattern.replace("(?P<", "(?P<"))
    except re.error as exc:
        raise error("E200", f"invalid regular expression: {exc}", node) from None
    if re.search(r"\(\?[=!<][^P]", pattern) or re.search(r"\\[1-9]", pattern):
        raise error("E200", "look-around and back-references are not supported by CXL "
                    "regular expressions", node)
    return "(?U)" + pattern.replace("(?P<", "(?<")


def group_count(pattern: str) -> int:
    try:
        return re.compile(pattern).groups
    except re.error:
        return 0
