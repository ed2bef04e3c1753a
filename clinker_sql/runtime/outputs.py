"""Turn Spark's staging folders into single files at the configured paths.

Every output of a run is first assembled next to its target as a hidden temp
file; only when all of them are ready are they moved into place (os.replace is
atomic on one filesystem). The commit is all-or-nothing: every target is checked
before the first move, each previous file is kept aside (a hard link) until every
move has succeeded, and a failed move puts the previous files back. On any failure
the staging data is removed and the previous outputs stay untouched.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TextIO

from clinker_sql.codegen.run_plan import WriteStep
from clinker_sql.codegen.sink_split import OVERSIZE
from clinker_sql.codegen.split_write import MARKER
from clinker_sql.config import path_template, sink_split
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.leftovers import RunFiles


BACKUP = ".clinker-bak"  # a target's previous file, while the outputs are moved into place


@dataclass
class PendingOutput:
    path: Path
    staging: Path
    temp: Path
    failures: int | None = None  # a split write: the failing rows split off (split_write.py)


def temp_path(path: Path) -> Path:
    """Where an output is assembled before it is moved into place."""
    return path.with_name(f".{path.name}.clinker-tmp")


def _csv_cell(value: str, delimiter: str) -> str:
    if any(ch in value for ch in (delimiter, '"', "\r", "\n")):
        return '"' + value.replace('"', '""') + '"'
    return value


def _parts(staging: Path) -> list[Path]:
    return sorted(p for p in staging.iterdir() if p.name.startswith("part-"))


def destination(step: WriteStep, base: Path, path: str, taken: set[Path] = frozenset()
                ) -> Path:
    """Where an output goes under the sink's `if_exists` (Clinker's open_output):
    `overwrite` its path; `error` its path unless a file is there (E-SEC-001, before
    anything is moved into place); `unique_suffix` its path, or the first of `-1`, `-2`,
    ... (zero-padded to `unique_suffix_width`) before its extension that no file holds
    and no other output of the run has taken."""
    target = base / path
    if step.if_exists == "error" and os.path.lexists(target):
        raise fail("E-SEC-001", f'output file already exists: "{path}" — set if_exists: '
                   "overwrite", hint="or if_exists: unique_suffix")
    if step.if_exists == "unique_suffix":
        n = 0
        while os.path.lexists(target) or target in taken:
            n += 1
            target = base / sink_split.unique_suffixed(path, n, step.unique_suffix_width)
    return target


def assemble(step: WriteStep, base: Path) -> PendingOutput:
    path = destination(step, base, step.path)
    staging = base / step.staging
    temp = temp_path(path)
    fmt = step.format
    if fmt == "parquet":
        parts = [p for p in _parts(staging) if p.suffix == ".parquet"]
        if len(parts) != 1:
            raise RuntimeError(f"expected one parquet part in {staging}, found {len(parts)}")
        shutil.copyfile(parts[0], temp)
        return PendingOutput(path, staging, temp)
    split = step.split
    pending = PendingOutput(path, staging, temp, 0 if split else None)
    if fmt == "xml" or step.line_separator == "none":
        return _assemble_xml(step, base, pending)
    out = _Writer(step, pending)
    try:
        sources = _sources(staging, base / split.side if split else None, pending)
        if out.array:
            for src in sources:
                for line in iter(src.readline, ""):
                    out.write(line.rstrip("\n"))
        else:  # CSV and NDJSON parts are the output's lines as they are
            for src in sources:
                shutil.copyfileobj(src, out.out, 1 << 20)
    finally:
        out.close()
    return pending


def _assemble_xml(step: WriteStep, base: Path, pending: PendingOutput) -> PendingOutput:
    """An XML output: its records (each staged as `<length>:<text>`, codegen/xml_sink.py)
    between the document element's tags, with nothing between them. A fixed-width output
    with `line_separator: none` is its records so staged, with no tags."""
    split = step.split
    xml = step.format == "xml"
    with open(pending.temp, "w", encoding="utf-8", newline="") as out:
        if xml:
            out.write(f"<{step.xml_root}>")
        for src in _sources(pending.staging, base / split.side if split else None, pending):
            for line in iter(src.readline, ""):
                colon = line.find(":")
                if colon < 1 or not line[:colon].isdigit():
                    raise RuntimeError(f"a malformed record in {src.name}")
                size, text = int(line[:colon]), line[colon + 1:]
                while len(text) < size + 1:  # the record's own line breaks, then the last
                    more = src.readline()
                    if not more:
                        raise RuntimeError(f"a truncated record in {src.name}")
                    text += more
                if len(text) != size + 1 or text[-1] != "\n":
                    raise RuntimeError(f"a malformed record in {src.name}")
                out.write(text[:-1])
        if xml:
            out.write(f"</{step.xml_root}>")
        out.flush()
        os.fsync(out.fileno())
    return pending


def assemble_fan_out(step: WriteStep, base: Path, files: list[str]) -> list[PendingOutput]:
    """A sink with `{source_file}`/`{source_path}` in its path: one output per file the
    source read (`files`, in reading order), each with the records read from it, in the
    sink's order (the write groups them by file). Each staged record is framed with its
    file (codegen/sink.py, `fan_out_line`). A listed file none of whose records reach the
    sink gets an output without rows, as a sink no row reaches. A sink's `split:` is
    assembled the same way (`assemble_segments`)."""
    if step.segments is not None:
        return assemble_segments(step, base)
    template = path_template.parse(step.fan_out.template, None)
    staging = base / step.staging
    targets: dict[str, Path] = {}
    owners: dict[Path, str] = {}  # each resolved destination -> the file it is for

    def destination(file: str) -> Path:
        rendered = template.render({"source_file": PurePath(file).stem, "source_path": file})
        if Path(rendered).is_absolute() and not Path(step.path).is_absolute():
            raise fail("CS107", f"sink path {step.path} renders an absolute path for "
                       f"{file}: {rendered}")
        path = base / rendered
        clash = owners.setdefault(path.resolve(), file)
        if clash != file:
            raise fail("CS107", f"sink path {step.path} renders both {clash} and {file} "
                       f"to {rendered}", hint="include another part that tells the files "
                       "apart")
        if not path.parent.is_dir():
            raise fail("CS103", f"cannot write {rendered} (for {file}): folder {path.parent} "
                       "does not exist")
        targets[file] = path
        return path

    def output(file: str) -> _Writer:
        path = targets.get(file) or destination(file)
        return _Writer(step, PendingOutput(path, staging, temp_path(path)))

    for file in files:  # every clash and missing folder before anything is written
        destination(file)
    done: dict[str, PendingOutput] = {}
    current: tuple[str, _Writer] | None = None
    try:
        for file, record in _framed(staging):  # one file's records together: one open file
            if current is None or current[0] != file:
                if current is not None:
                    current[1].close()
                if file in done:
                    raise RuntimeError(f"the records of {file} are not together in {staging}")
                current = (file, output(file))
                done[file] = current[1].pending
            current[1].write(record)
        if current is not None:
            current[1].close()
        for file in files:
            if file not in done:
                writer = output(file)
                writer.close()
                done[file] = writer.pending
    except BaseException:
        if current is not None:
            current[1].close()
        discard(list(done.values()), [])
        raise
    return list(done.values())


def assemble_segments(step: WriteStep, base: Path) -> list[PendingOutput]:
    """A sink's `split:` files (codegen/sink_split.py): the staged records, in the sink's
    order and each framed with its group key, cut by Clinker's SplittingWriter rule: the
    first record opens file 1; before each other record, a file holding `max_records`
    records or `max_bytes` bytes (its header included) is closed and the next opened,
    with `group_key` only where the key changes. A group that outgrows the limits stays
    in its file (`oversize_group: error` stops the run, CS112). No record: no file."""
    seg = step.segments
    staging = base / step.staging
    done: list[PendingOutput] = []
    taken: set[Path] = set()
    writer: _Writer | None = None
    records, key, oversize = 0, None, False

    def open_next() -> _Writer:
        path = destination(step, base, sink_split.render(seg.naming, step.path,
                                                         len(done) + 1), taken)
        taken.add(path)
        out = _Writer(step, PendingOutput(path, staging, temp_path(path)))
        done.append(out.pending)
        return out

    try:
        for k, record in _framed(staging):
            if writer is None:
                writer = open_next()
            else:
                full = (seg.max_records is not None and records >= seg.max_records) or (
                    seg.max_bytes is not None and writer.bytes >= seg.max_bytes)
                if full and (not seg.grouped or k != key):
                    writer.close()
                    writer, records, oversize = open_next(), 0, False
                elif full and not oversize:
                    oversize = True
                    if seg.oversize_group == "error":
                        raise fail(OVERSIZE, "oversize group: single key group "
                                   f"exceeds split limit ({records} records) in "
                                   f"{writer.pending.path.name}",
                                   hint="raise the limits, or set oversize_group: warn")
            key = k
            writer.write(record)
            records += 1
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.close()
        discard(done, [])
        raise
    return done


class _Writer:
    """One output file (its temporary copy) of a text sink: the CSV header or the JSON
    array's brackets around the records written."""

    def __init__(self, step: WriteStep, pending: PendingOutput):
        self.pending, self.csv = pending, step.format == "csv"
        self.array = step.format == "json" and step.json_format != "ndjson"
        self.end = "" if step.line_separator == "none" else "\n"  # fixed-width: its own
        self.out = open(pending.temp, "w", encoding="utf-8", newline="")
        self.first = True
        self.bytes = 0  # written so far (a split sink's max_bytes)
        if self.csv and step.include_header:
            delim = step.delimiter
            self._put(delim.join(_csv_cell(h, delim) for h in step.header) + "\n")
        elif self.array:
            self._put("[")

    def _put(self, text: str) -> None:
        self.out.write(text)
        self.bytes += len(text.encode("utf-8"))

    def write(self, record: str) -> None:
        if self.array:
            self._put(("\n" if self.first else ",\n") + record)
        else:
            self._put(record + self.end)
        self.first = False

    def close(self) -> None:
        if self.out.closed:
            return
        if self.array:
            self.out.write("\n]\n" if not self.first else "]\n")
        self.out.flush()
        os.fsync(self.out.fileno())
        self.out.close()


def _framed(staging: Path) -> Iterator[tuple[str, str]]:
    """(file, record text) of each staged record, framed as `<n>:<file><m>:<text>` and
    ended by the line break Spark's text writer adds; a text with line breaks spans
    several lines."""
    for part in _parts(staging):
        with open(part, encoding="utf-8", newline="") as src:
            for line in iter(src.readline, ""):
                try:
                    colon = line.index(":")
                    start = colon + 1 + int(line[:colon])
                    file = line[colon + 1:start]
                    colon = line.index(":", start)
                    size, text = int(line[start:colon]), line[colon + 1:]
                except ValueError:
                    raise RuntimeError(f"a malformed record in {part}") from None
                while len(text) < size + 1:  # the record's own line breaks, then the last
                    more = src.readline()
                    if not more:
                        raise RuntimeError(f"a truncated record in {part}")
                    text += more
                if len(text) != size + 1 or text[-1] != "\n":
                    raise RuntimeError(f"a malformed record in {part}")
                yield file, text[:-1]


def _sources(staging: Path, side: Path | None, pending: PendingOutput) -> Iterator[TextIO]:
    """The staged parts in order, each open at its first output line: a split write's
    first part holds the failing rows before a marker line, which go to `side`."""
    parts = _parts(staging)
    if side is not None and not parts:
        raise RuntimeError(f"no part in {staging}")
    for i, part in enumerate(parts):
        # newline="": a CR inside a quoted value stays a CR (no newline translation)
        with open(part, encoding="utf-8", newline="") as src:
            if side is not None and i == 0:
                pending.failures = _split_off(src, side)
            yield src


def _split_off(src: TextIO, side: Path) -> int:
    """Copy the lines before the marker line into `side`; returns how many."""
    n = 0
    with open(side, "w", encoding="utf-8", newline="") as out:
        for line in iter(src.readline, ""):
            if line.rstrip("\r\n") == MARKER:
                return n
            out.write(line)
            n += 1
    raise RuntimeError(f"no end of the failing rows in {src.name}")


def check_target(path: Path, shown: object = None) -> None:
    """CS103 (exit 4) unless a file can be put at `path`: not an existing folder nor
    anything else that is not a file, in a folder that exists and is writable."""
    shown = path if shown is None else shown
    if path.is_dir():
        raise fail("CS103", f"cannot write {shown}: {path} is an existing folder",
                   hint="give the output a file path; an output is one file")
    if path.exists() and not path.is_file():
        raise fail("CS103", f"cannot write {shown}: {path} is not a regular file")
    check_folder(path.parent, shown)


def check_folder(folder: Path, shown: object) -> None:
    """CS103 (exit 4) unless `folder` exists and files can be created in it."""
    if not folder.is_dir():
        raise fail("CS103", f"cannot write {shown}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise fail("CS103", f"cannot write {shown}: folder {folder} is not writable")


def backup_path(path: Path) -> Path:
    return path.with_name(f".{path.name}{BACKUP}")


def commit(outputs: list[PendingOutput], files: RunFiles | None = None) -> None:
    """Move every output into place, or none: a failure puts the previous files back and
    raises CS103. `files`: the run's record, which a later run rolls back from when this
    process dies half-way (runtime/leftovers.py)."""
    for o in outputs:  # every target before the first move
        check_target(o.path)
    moves = [(o.path, o.temp, backup_path(o.path) if os.path.lexists(o.path) else None)
             for o in outputs]
    if files is not None:
        files.add(b for _, _, b in moves if b is not None)
        files.committing(moves)
    kept: list[tuple[Path, Path]] = []  # (target, backup) of the previous files set aside
    moved: list[Path] = []  # targets that hold their new file
    try:
        for target, temp, backup in moves:
            if backup is not None:
                _keep(target, backup)
                kept.append((target, backup))
            _move(temp, target)
            moved.append(target)
    except OSError as exc:
        left = _roll_back(kept, [t for t in moved if t not in dict(kept)])
        msg = f"cannot write {target}: {exc.strerror or exc}; no output was changed"
        if left:
            msg = (f"cannot write {target}: {exc.strerror or exc}; the previous files of "
                   f"{', '.join(str(t) for t, _ in left)} are kept as "
                   f"{', '.join(str(b) for _, b in left)}")
        raise fail("CS103", msg) from None
    if files is not None:
        files.committing(None)
    for _, backup in kept:
        backup.unlink(missing_ok=True)
    for o in outputs:
        shutil.rmtree(o.staging, ignore_errors=True)


def _move(temp: Path, target: Path) -> None:
    os.replace(temp, target)


def _keep(target: Path, backup: Path) -> None:
    """`backup` becomes a second name of the previous file (no copy; the target keeps its
    file until it is replaced), or a copy where hard links are refused."""
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError:
        shutil.copy2(target, backup, follow_symlinks=False)


def _roll_back(kept: list[tuple[Path, Path]], created: list[Path]) -> list[tuple[Path, Path]]:
    """Put each previous file back and remove the new outputs that had none; returns the
    (target, backup) pairs that could not be restored (their backups are kept)."""
    left = []
    for target, backup in kept:
        try:
            os.replace(backup, target)
            backup.unlink(missing_ok=True)  # still there when both named one file
        except OSError:
            left.append((target, backup))
    for target in created:
        target.unlink(missing_ok=True)
    return left


def show(outputs: list[PendingOutput], stream: TextIO) -> None:
    """A preview's outputs (run --dry-run -n): each assembled file's text, in the order
    they were written, to `stream`."""
    raw = getattr(stream, "buffer", None)  # bytes as written (a Parquet file's too)
    for o in outputs:
        if not o.temp.exists():
            continue
        data = o.temp.read_bytes()
        if raw is not None:
            stream.flush()
            raw.write(data)
            raw.flush()
        else:
            stream.write(data.decode("utf-8", errors="replace"))
    stream.flush()


def discard(outputs: list[PendingOutput], stagings: list[Path]) -> None:
    for o in outputs:
        o.temp.unlink(missing_ok=True)
    for s in stagings:
        shutil.rmtree(s, ignore_errors=True)
