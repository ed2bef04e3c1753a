"""`clinker-sql init [DIR]`: a small working workspace to start from (the files of
`starter/`: clinker.toml, a pipeline with its data, a composition, a channel, a README)."""

from __future__ import annotations

from pathlib import Path

from clinker_sql.diagnostics import fail

STARTER = Path(__file__).resolve().parent / "starter"
# files of starter/ written under another name (a .gitignore inside the package would
# apply to the package's own folder)
_RENAMED = {"gitignore.txt": ".gitignore"}


def starter_files() -> dict[str, bytes]:
    """Path relative to the workspace -> content, in path order."""
    out = {}
    for path in sorted(p for p in STARTER.rglob("*") if p.is_file()):
        rel = path.relative_to(STARTER).as_posix()
        if "__pycache__" not in rel:
            out[_RENAMED.get(rel, rel)] = path.read_bytes()
    return out


def init_workspace(folder: Path) -> list[str]:
    """Write the starter workspace into `folder` (created if missing); returns the paths
    written. Nothing is overwritten: a file already there is CS083, before anything is
    written."""
    files = starter_files()
    if folder.exists() and not folder.is_dir():
        raise fail("CS083", f"{folder} is a file, not a folder")
    taken = sorted(rel for rel in files if (folder / rel).exists())
    if taken:
        raise fail("CS083", f"{folder} already holds {', '.join(taken)}: init writes nothing "
                   "over an existing file", hint="give a new or empty folder: "
                   "clinker-sql init my_workspace")
    for rel, content in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    (folder / "out").mkdir(exist_ok=True)
    (folder / "out" / ".gitkeep").touch()
    return list(files)
