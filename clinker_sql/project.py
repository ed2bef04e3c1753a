"""The façade the CLI and the tests share: load, compile, write, run."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from clinker_sql.codegen.artifacts import safe_name, write_target
from clinker_sql.codegen.compiler import compile_pipeline
from clinker_sql.codegen.composition_ports import check_ports
from clinker_sql.codegen.plan import Compiled
from clinker_sql.config.model import Pipeline
from clinker_sql.config.load import load_project_pipeline
from clinker_sql.config.overlay import resolve_overlays
from clinker_sql.config.var_overrides import apply_var_overrides
from clinker_sql.config.workspace import load_workspace
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.executor import Executor
from clinker_sql.runtime.local import LocalSparkExecutor
from clinker_sql.runtime.runner import (
    RunResult,
    preflight,
    run_compiled,
    write_failed_run_results,
    write_run_results,
)
from clinker_sql.runtime.connect import ConnectTarget, open_executor
from clinker_sql.runtime.thrift import ThriftTarget


@dataclass
class Project:
    pipeline_file: Path
    out_dir: Path = Path("target")
    # absolute paths in the pipeline: refused (E-SEC-001) unless allowed, as in Clinker
    allow_absolute_paths: bool = False
    # --rules-path: the folder CXL modules are found under, before pipeline.rules_path
    rules_path: str | None = None
    # --var name=value, in command-line order (the last of a name wins)
    vars: tuple[str, ...] = ()
    # the project layer (config/load.py): the workspace folder (default: the pipeline
    # file's folder), the channel and the groups whose overlays apply
    base_dir: Path | None = None
    channel: str | None = None
    groups: tuple[str, ...] = ()
    # the pipeline, when it was loaded already (a workspace command: workspace_project.py)
    preloaded: Pipeline | None = None

    @property
    def base(self) -> Path:
        """The folder the pipeline's relative paths resolve against: its file's folder,
        as in Clinker (a run from another folder reads and writes the same files)."""
        return Path(self.pipeline_file).absolute().parent

    def load(self) -> Pipeline:
        if self.preloaded is not None:
            return self.preloaded
        pipeline = load_project_pipeline(self.pipeline_file, self.allow_absolute_paths,
                                         base_dir=self.base_dir, channel=self.channel,
                                         groups=self.groups)
        if self.rules_path is not None:
            pipeline = replace(pipeline, rules_path=self.rules_path)
        return apply_var_overrides(pipeline, self.vars)

    def overlay_summary(self) -> str | None:
        """What --channel and --group apply, in Clinker's one-line form; None without."""
        if self.channel is None and not self.groups:
            return None
        ws = load_workspace(self.pipeline_file, self.base_dir)
        return resolve_overlays(ws, self.pipeline_file, self.channel, self.groups).summary()

    def compile(self, pipeline: Pipeline | None = None, base: Path | None = None) -> Compiled:
        """`base`: the folder the pipeline's relative paths resolve against (`self.base` by
        default), where CSV sources' headers are read (codegen/unmapped.py)."""
        pipeline = pipeline or self.load()
        check_ports(pipeline, base or self.base)
        return compile_pipeline(pipeline, base or self.base)

    def write(self, compiled: Compiled | None = None) -> Path:
        compiled = compiled or self.compile()
        return write_target(compiled, self.out_dir, self.folder(compiled.pipeline))

    def folder(self, pipeline: str) -> str:
        """The pipeline's folder under OUT: `<pipeline>`, and with overlays
        `<pipeline>@<channel>+<group>...`, so that each tenant's SQL is compiled (and
        pinned by `compile --check`) in a folder of its own."""
        name = safe_name(pipeline)
        if self.channel:
            name += "@" + safe_name(self.channel)
        for group in self.groups:
            name += "+" + safe_name(group)
        return name

    def run(self, executor: Executor | None = None, progress=None,
            base: Path | None = None,
            remote: ThriftTarget | ConnectTarget | None = None) -> RunResult:
        """Run on `executor`, else on a Thrift or Spark Connect server (one session, closed
        afterwards) when `remote` (its target) is given, else on the embedded local
        Spark."""
        started = time.time()
        base = base or self.base
        model = self.load()  # a pipeline that does not load names no target folder
        compiled: Compiled | None = None
        partial: dict = {}
        try:
            compiled = self.compile(model, base)
            target = self.write(compiled)
            if executor is None and remote is None:  # a bad output fails before Spark starts
                preflight(compiled, base)
            result = self._execute(compiled, executor, remote, base, progress, partial)
        except BaseException as exc:  # every failed run is recorded, then reported
            try:
                write_failed_run_results(model.name, exc, self.out_dir / self.folder(model.name),
                                         started, compiled, partial)
            except OSError:
                pass  # the failure itself is what the command reports
            _write_log(progress, self.out_dir / self.folder(model.name), failed=True)
            raise
        write_run_results(compiled, result, target, started)
        _write_log(progress, target)
        return result

    def preview(self, rows: int, stream, executor: Executor | None = None, progress=None,
                remote: ThriftTarget | ConnectTarget | None = None) -> RunResult:
        """`run --dry-run -n N` (Clinker's preview): each source reads its first `rows`
        records; the outputs go to `stream` in their formats instead of their paths, no
        DLQ is written, and no compiled folder or run results either. Exit code as a run:
        0, or 2 when there were DLQ entries."""
        model = replace(self.load(), preview_rows=rows)
        compiled = self.compile(model)
        if any(s.kind == "write" and getattr(s.step, "format", "") == "table"
               for s in compiled.statements):
            raise fail("CS001", "a preview (run --dry-run -n) of a pipeline writing a table "
                       "is not supported", hint="preview it with a file sink")
        if executor is None and remote is None:
            preflight(compiled, self.base)
        if executor is None and remote is not None:
            with open_executor(remote) as session:
                return run_compiled(compiled, session, self.base, progress, preview=stream)
        return run_compiled(compiled, executor or LocalSparkExecutor(), self.base, progress,
                            preview=stream)

    @staticmethod
    def _execute(compiled: Compiled, executor: Executor | None,
                 remote: ThriftTarget | ConnectTarget | None,
                 base: Path, progress, partial: dict) -> RunResult:
        if executor is None and remote is not None:
            with open_executor(remote) as session:
                return run_compiled(compiled, session, base, progress, partial)
        if executor is None:
            executor = LocalSparkExecutor()
        return run_compiled(compiled, executor, base, progress, partial)

    def target_dir(self, compiled: Compiled) -> Path:
        return self.out_dir / self.folder(compiled.pipeline)


def _write_log(progress, folder: Path, failed: bool = False) -> None:
    """The run's events (runtime/progress.py) as `run.log` in its compiled folder, once
    its last step is closed (closing again is a no-op for the caller)."""
    if hasattr(progress, "write_log") and folder.is_dir():
        progress.close(failed=failed)
        progress.write_log(folder)
