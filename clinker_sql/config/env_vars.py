"""`${VAR}` and `${VAR:-default}` environment substitution, applied as Clinker applies it
(its `interpolate_env_vars`): on the raw text of the whole pipeline file, before YAML
parsing, so a reference works anywhere (a path, a CXL string, even a comment), and the
value is inserted bare, without YAML quoting. `$$` is the escape: every `$$` becomes
one `$`, so `$${VAR}` leaves the text `${VAR}`.

`extra` values are looked up before the environment (Clinker's channel variables)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from clinker_sql.diagnostics import Location, fail

# Clinker's regex: the name is matched loosely, then checked strictly, so that a
# lower-case name is an error rather than text left in place.
_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-(.*?))?\}")
_STRICT_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
_ESCAPE = "\0"


def substitute(text: str, file: str, environ: Mapping[str, str] | None = None,
               extra: Mapping[str, str] | None = None) -> str:
    """The text with every reference replaced. A variable that is not set and has no
    default is CS070; a name that is not upper case is CS071 (Clinker refuses both
    before parsing)."""
    if "${" not in text and "$$" not in text:
        return text  # the common case: the text is returned unchanged, byte for byte
    env = os.environ if environ is None else environ
    escaped = text.replace("$$", _ESCAPE)
    out: list[str] = []
    last = 0
    for match in _REF.finditer(escaped):
        name, default = match.group(1), match.group(2)
        if not _STRICT_NAME.fullmatch(name):
            raise fail("CS071", f"invalid environment variable name '{name}': it must match "
                       "[A-Z_][A-Z0-9_]*", _where(escaped, match.start(), file),
                       "write the name in upper case, or `$${...}` for the literal text")
        out.append(escaped[last:match.start()])
        if extra is not None and name in extra:
            out.append(extra[name])
        elif name in env:
            out.append(env[name])
        elif default is not None:
            out.append(default)
        else:
            raise fail("CS070", f"environment variable '{name}' is not set and its reference "
                       "has no default", _where(escaped, match.start(), file),
                       f"set {name}, or write `${{{name}:-default}}`")
        last = match.end()
    out.append(escaped[last:])
    return "".join(out).replace(_ESCAPE, "$")


def _where(text: str, offset: int, file: str) -> Location:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(file, line, column)
