"""Size limits on what a pipeline names, each refused with a code of its own: a name
becomes part of a file name of the compiled folder, and a path is handed to the file
system, which refuses a component over 255 bytes or a whole path over 4096."""

from __future__ import annotations

from clinker_sql.diagnostics import Location, fail

MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4096
MAX_PATH_PART_BYTES = 255


def check_name(name: str, what: str, loc: Location | None) -> None:
    """CS063: a name (of the pipeline, a node, a column, a branch) over 255 bytes."""
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > MAX_NAME_BYTES:
        raise fail("CS063", f"{what} is {size} bytes long; the limit is {MAX_NAME_BYTES} "
                   f"bytes: {name[:40]!r}...", loc, "choose a shorter name")


def check_path_length(raw: str, what: str, loc: Location | None) -> None:
    """CS064: a path over 4096 bytes, or with a folder or file name over 255 bytes."""
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_PATH_BYTES:
        raise fail("CS064", f"{what}: the path is {size} bytes long; the limit is "
                   f"{MAX_PATH_BYTES} bytes: {raw[:40]!r}...", loc, "choose a shorter path")
    for part in raw.replace("\\", "/").split("/"):
        size = len(part.encode("utf-8", "surrogatepass"))
        if size > MAX_PATH_PART_BYTES:
            raise fail("CS064", f"{what}: the path has a folder or file name of {size} "
                       f"bytes; the limit is {MAX_PATH_PART_BYTES} bytes: {part[:40]!r}...",
                       loc, "choose a shorter name")
