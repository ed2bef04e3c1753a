"""Loading a pipeline with its project layer: the workspace, `${VAR}` substitution,
channel and group overlays, and composition expansion, into one ordinary `Pipeline`.

Overlay `config:` keys name composition parameters by call, so the calls are expanded
once to learn them, the overlays are resolved against them, and the pipeline is then
built with the winning values folded into each call's body."""

from __future__ import annotations

import os
from pathlib import Path

from clinker_sql.config import model as m
from clinker_sql.config.composition import Expander
from clinker_sql.config.env_vars import substitute
from clinker_sql.config.overlay import resolve_overlays
from clinker_sql.config.parse import parse_pipeline, read_pipeline_text
from clinker_sql.config.workspace import load_workspace


def load_project_pipeline(path: str | Path, allow_absolute_paths: bool = False, *,
                          base_dir: Path | None = None, channel: str | None = None,
                          groups: tuple[str, ...] = (), environ=None) -> m.Pipeline:
    path = Path(path)
    file = str(path)
    text = substitute(read_pipeline_text(path), file, os.environ if environ is None else environ)
    ws = load_workspace(path, base_dir)
    overlays = resolve_overlays(ws, path, channel, tuple(groups))
    overrides = resources = None
    if not overlays.empty:
        probe = Expander(ws, path)
        parse_pipeline(text, file, allow_absolute_paths, expander=probe,
                       structural=overlays.structural_ops())
        overrides = overlays.config_for(probe.calls)
        resources = overlays.resources_for(probe.calls)
    expander = Expander(ws, path, overrides, resources)
    return parse_pipeline(text, file, allow_absolute_paths, expander=expander,
                          var_overrides=overlays.var_values(),
                          structural=overlays.structural_ops())
