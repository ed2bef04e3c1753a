"""Replace a folder's generated files all at once (what `compile` writes).

The new files are written to a hidden sibling folder, which then takes the old folder's
place by two renames (the old one aside, the new one in). A failure before the swap
leaves the old folder exactly as it was; after it, the folder holds only the new files.
Files the folder holds that the generator does not own (run_results.json, docs.html,
anything a user put there) are carried over into the new folder.

A process killed half-way leaves a hidden sibling named after its process id; the next
write into the same folder removes it, or puts a folder it had moved aside back first."""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path


def write_folder(target: Path, contents: dict[str, str], owned: Callable[[str], bool]) -> None:
    """Make `target` hold `contents` (path relative to it, "/"-separated -> text), plus
    the entries it held at its top that `owned` says the generator did not write. Raises
    OSError; the old folder is then untouched."""
    if target.is_symlink():  # write where the link points, keep the link
        target = target.resolve()
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a folder", str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    _recover(target)
    new = _sibling(target, "new")
    try:
        new.mkdir()
        for name, text in contents.items():
            path = new / name
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, text)
        if target.is_dir():
            for entry in target.iterdir():
                if not owned(entry.name):
                    _carry(entry, new / entry.name)
        _swap(target, new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise


def write_file(path: Path, text: str) -> None:
    """One generated file (the tests make it fail half-way)."""
    path.write_text(text, encoding="utf-8")


def _swap(target: Path, new: Path) -> None:
    if not target.exists():
        os.rename(new, target)
        return
    old = _sibling(target, "old")
    os.rename(target, old)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _carry(src: Path, dst: Path) -> None:
    """A file that is not generated, into the new folder: a hard link where the file
    system allows one (no copy of a large file), else a copy."""
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dst, symlinks=True, copy_function=_link_or_copy)
    else:
        _link_or_copy(src, dst)


def _link_or_copy(src: str | Path, dst: str | Path) -> None:
    if os.path.islink(src):
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _sibling(target: Path, role: str) -> Path:
    return target.parent / f".{target.name}.{role}-{os.getpid()}-{secrets.token_hex(4)}"


def _recover(target: Path) -> None:
    """Siblings a killed write left behind: a folder moved aside goes back when the
    target is missing; the others are removed. Those of a live process are left alone."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(new|old)-(\d+)-[0-9a-f]+")
    for entry in sorted(target.parent.iterdir()):
        m = pattern.fullmatch(entry.name)
        if m is None or _alive(int(m.group(2))):
            continue
        if m.group(1) == "old" and not target.exists():
            os.rename(entry, target)
        else:
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows: signal 0 would interrupt it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True

