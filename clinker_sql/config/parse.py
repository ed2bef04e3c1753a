"""Load pass: pipeline YAML text -> typed `Pipeline`, strictly.

Unlike Clinker, unknown keys are rejected everywhere, including inside source
and sink `config:` blocks (Clinker silently ignores typos there).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from clinker_sql.config import model as m
from clinker_sql.config import file_filters, fixed_width, multi_value, path_template, sink_split
from clinker_sql.config.checks import check_path, check_regular, check_symlink, shown
from clinker_sql.config.fields import Fields, type_name
from clinker_sql.config.limits import check_name
from clinker_sql.config.overlay_ops import apply_ops
from clinker_sql.config.reshape import parse_reshape
from clinker_sql.config.yamlnodes import YMap, YNode, YScalar, YSeq, load_yaml
from clinker_sql.diagnostics import Diagnostic, DiagnosticError, Location, fail

NODE_KINDS = ("source", "transform", "aggregate", "route", "merge", "combine", "sink",
              "reshape", "cull", "envelope", "composition")


class _Ctx:
    def __init__(self, file: str, text: str, allow_absolute_paths: bool = False):
        self.file = file
        self.allow_absolute_paths = allow_absolute_paths
        self.lines = text.splitlines()
        # a composition body's CXL is located in its own .comp.yaml file
        self.other_lines: dict[str, list[str]] = {}
        self.warnings: list[Diagnostic] = []

    def warn(self, code: str, message: str, loc: Location, hint: str = "") -> None:
        self.warnings.append(Diagnostic(code, message, loc, hint, severity="warning"))


def load_pipeline(path: str | Path, allow_absolute_paths: bool = False) -> m.Pipeline:
    """`allow_absolute_paths`: accept absolute paths in the pipeline (E-SEC-001 otherwise,
    config/checks.py); the CLI's --allow-absolute-paths or CLINKER_ALLOW_ABSOLUTE_PATHS."""
    return parse_pipeline(read_pipeline_text(path), str(path), allow_absolute_paths)


def read_pipeline_text(path: str | Path) -> str:
    file = str(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise fail("CS104", f"cannot read pipeline file {file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise fail("CS104", f"pipeline file {file} is not valid UTF-8") from None


def parse_pipeline(text: str, file: str, allow_absolute_paths: bool = False,
                   expander=None, var_overrides=None, structural=()) -> m.Pipeline:
    """`expander` (config/composition.py): replaces composition calls by their bodies'
    nodes; `var_overrides` (config/overlay.py): pipeline var name -> (default, where),
    the defaults a channel or group gives; `structural`: the overlays' `overrides:` ops
    (config/overlay_ops.py), applied to the node list before the calls are expanded."""
    ctx = _Ctx(file, text, allow_absolute_paths)
    root = Fields(load_yaml(text, file), "the pipeline file")
    meta = Fields(root.raw("pipeline", required=True), "pipeline:")
    name = meta.str("name", required=True)
    check_name(name, "the pipeline name", meta.node.get("name").loc)
    for key, code in (("date_locale", "E119"), ("log_rules", "E124"),
                      ("include_provenance", "E125")):
        if meta.has(key):
            meta.raw(key)
            raise fail(code, f"pipeline.{key} is not supported", meta.key_loc(key))
    for ignored in ("memory", "batch_size", "concurrency", "metrics", "date_formats",
                    "_notes"):
        meta.raw(ignored)  # engine tuning: Spark owns memory and parallelism
    rules = meta.raw("rules_path")  # where CXL modules are found (cxl/modules.py)
    rules_path = None
    if isinstance(rules, YScalar) and isinstance(rules.value, str):
        check_path(rules.value, "pipeline.rules_path", rules.loc, allow_absolute_paths)
        rules_path = rules.value
    variables = _vars(meta.raw("vars"))
    if var_overrides:
        variables = _override_vars(variables, var_overrides)
    meta.done()
    nodes_node = root.raw("nodes", required=True)
    if not isinstance(nodes_node, YSeq):
        raise fail("E000", f"nodes: must be a list, found {type_name(nodes_node)}",
                   nodes_node.loc)
    items = list(nodes_node.items)
    if structural:
        items = apply_ops(items, list(structural), Path(file).parent)
    if expander is not None:
        items = expander.expand(items)
        ctx.other_lines = {f: t.splitlines() for f, t in expander.texts.items()}
    for op in structural:  # a node an op brought in is shown from its overlay file
        if op.op.loc.file not in ctx.other_lines:
            ctx.other_lines[op.op.loc.file] = _file_lines(op.op.loc.file)
    nodes = tuple(_node(item, ctx) for item in items)
    eh = _error_handling(root.raw("error_handling"))
    root.raw("_notes")
    root.done()
    return m.Pipeline(name=name, file=file, nodes=nodes, error_handling=eh, vars=variables,
                      warnings=tuple(ctx.warnings), allow_absolute_paths=allow_absolute_paths,
                      rules_path=rules_path,
                      ports=tuple(expander.port_bindings) if expander is not None else ())


def _file_lines(file: str) -> list[str]:
    try:
        return Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _override_vars(variables: tuple[m.VarDecl, ...], overrides: dict
                   ) -> tuple[m.VarDecl, ...]:
    """A channel's or group's `vars.static` entry gives a pipeline var its value: its
    type must be the declared one and its default must have it (Clinker's E116); a var
    the pipeline does not declare is added."""
    out = []
    declared = {v.name for v in variables}
    for var in variables:
        cand = overrides.get(var.name)
        if cand is not None:
            if cand.type != var.type:
                raise fail("E116", f"channel '{cand.label}': var $vars.{var.name} override "
                           f"type mismatch: declared {var.type}, override declared "
                           f"{cand.type}", cand.type_loc)
            var = replace(var, default=_overlay_default(cand))
        out.append(var)
    for name, cand in overrides.items():
        if name not in declared:
            out.append(m.VarDecl(name, cand.type, _overlay_default(cand), cand.loc))
    return tuple(out)


def _overlay_default(cand) -> object:
    try:
        return _var_default(cand.name, cand.type, YScalar(cand.loc, cand.default))
    except DiagnosticError:
        raise fail("E116", f"channel '{cand.label}': var $vars.{cand.name} default "
                   f"{cand.default!r} does not match type {cand.type}", cand.loc) from None


def _vars(node: YNode | None) -> tuple[m.VarDecl, ...]:
    if node is None:
        return ()
    if not isinstance(node, YMap):
        raise fail("E000", "pipeline.vars must be a mapping of name -> {type, default}", node.loc)
    out = []
    for name, (key, value) in node.entries.items():
        f = Fields(value, f"pipeline.vars.{name}")
        vtype = f.choice("type", ("string", "int", "float", "bool", "date", "datetime"),
                         required=True)
        default = f.raw("default")
        f.done()
        out.append(m.VarDecl(name, vtype, _var_default(name, vtype, default), key.loc))
    return tuple(out)


_VAR_TYPES = {"string": (str, "String"), "int": (int, "Int"), "float": ((int, float), "Float"),
              "bool": (bool, "Bool"), "date": (str, "Date"), "datetime": (str, "DateTime")}
_ISO = {"date": re.compile(r"\d{4}-\d{2}-\d{2}"),
        "datetime": re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?")}


def _var_default(name: str, vtype: str, node: YNode | None) -> object:
    """A var's default must match its type (Clinker's check_scoped_var_default); a date or
    datetime default is its ISO text. No default (or null): the var reads as null."""
    value = node.value if isinstance(node, YScalar) else node
    if value is None:
        return None
    kinds, shown_type = _VAR_TYPES[vtype]
    ok = isinstance(value, kinds) and (vtype == "bool" or not isinstance(value, bool))
    if ok and vtype == "int":
        ok = -2**63 <= value < 2**63
    if ok and vtype == "float":
        ok = math.isfinite(value)
    if ok and vtype in _ISO:
        ok = bool(_ISO[vtype].fullmatch(value)) and _valid_date(value)
    if not ok:
        raise fail("E000", f"vars.{name}: default value does not match declared type "
                   f"{shown_type}", node.loc if node is not None else None,
                   "write e.g. `2024-01-31` for a date, `2024-01-31T08:00:00` for a datetime"
                   if vtype in _ISO else f"give a default of type {vtype}, or none")
    return value


def _valid_date(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _error_handling(node: YNode | None) -> m.ErrorHandling:
    if node is None:
        return m.ErrorHandling()
    f = Fields(node, "error_handling:")
    strategy = f.str("strategy", default="fail_fast")
    if strategy == "best_effort":  # the seed documents' spelling; Clinker removed it
        raise fail("E000", "`error_handling.strategy: best_effort` is not a strategy: it was "
                   "removed", f.node.get("strategy").loc, "write `strategy: continue`")
    if strategy not in ("fail_fast", "continue"):
        raise fail("E000", f"strategy must be fail_fast or continue; found '{strategy}'",
                   f.node.get("strategy").loc)
    dlq = None
    dlq_node = f.raw("dlq")
    if dlq_node is not None:
        d = Fields(dlq_node, "error_handling.dlq:")
        path = d.str("path")
        include_reason = d.bool("include_reason", True)
        include_source_row = d.bool("include_source_row", True)
        limit = _dlq_limit(d, False)
        per_source = []
        per_node = d.raw("per_source")
        if per_node is not None:
            if not isinstance(per_node, YMap):
                raise fail("E000", "error_handling.dlq.per_source must map source names to "
                           "{path, max_rate, min_records}", per_node.loc)
            for src in per_node.entries:
                ps = Fields(per_node.get(src), f"error_handling.dlq.per_source.{src}:")
                per_source.append((src, _dlq_limit(ps, True)))
                ps.done()
        dlq = m.DlqConfig(path=path, include_reason=include_reason,
                          include_source_row=include_source_row, loc=d.loc, limit=limit,
                          per_source=tuple(per_source))
        d.done()
    max_group_buffer = f.int("max_group_buffer", 100_000)
    policy = f.choice("correlation_fanout_policy", ("any", "all", "primary"), "any")
    threshold = f.number("type_error_threshold")
    if threshold is not None and not (0.0 <= threshold <= 1.0 and math.isfinite(threshold)):
        raise fail("E368", f"error_handling.type_error_threshold {threshold} must be a finite "
                   "number in [0.0, 1.0]", f.key_loc("type_error_threshold"))
    f.done()
    return m.ErrorHandling(strategy=strategy, dlq=dlq, max_group_buffer=max_group_buffer,
                           correlation_fanout_policy=policy, loc=f.loc,
                           type_error_threshold=threshold)


def _dlq_limit(f: Fields, per_source: bool) -> m.DlqLimit:
    rate = f.number("max_rate")
    min_records = f.int("min_records")
    if min_records is not None and min_records < 0:
        raise fail("E000", "min_records must be a non-negative integer", f.key_loc("min_records"))
    return m.DlqLimit(max_rate=float(rate) if rate is not None else None,
                      min_records=min_records, path=f.str("path") if per_source else None,
                      loc=f.key_loc("max_rate") if rate is not None else f.loc)


def _ref(node: YNode | None, what: str) -> m.Ref:
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        loc = node.loc if node else None
        raise fail("E000", f"{what} must be a node reference string", loc)
    parts = node.value.split(".")
    if len(parts) > 2 or any(p == "" for p in parts):
        raise fail("E000", f"invalid input reference '{node.value}'", node.loc,
                   "write `node` or `node.port`")
    loc = node.loc
    if node.style in ('"', "'"):
        loc = Location(loc.file, loc.line, loc.column + 1)
    return m.Ref(parts[0], parts[1] if len(parts) == 2 else None, loc)


def cxl_source(node: YNode | None, what: str, ctx: _Ctx) -> m.CxlSource:
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        raise fail("E000", f"{what} must be a CXL string",
                   node.loc if node else None)
    file = node.loc.file if node.loc.file in ctx.other_lines else ctx.file
    lines = ctx.other_lines.get(file, ctx.lines)
    if node.style in ("|", ">"):
        first = node.raw_line + 1  # 0-based index of the first content line
        indent = 0
        for line in lines[first:]:
            if line.strip():
                indent = len(line) - len(line.lstrip(" "))
                break
        return m.CxlSource(node.value, file, first + 1, indent + 1)
    offset = 1 if node.style in ('"', "'") else 0
    return m.CxlSource(node.value, file, node.loc.line, node.loc.column + offset,
                       single_line=True)


def _node(node: YNode, ctx: _Ctx) -> m.Node:
    f = Fields(node, "a node")
    kind_node = f.raw("type", required=True)
    kind = kind_node.value if isinstance(kind_node, YScalar) else None
    if kind == "output":  # the seed documents' spelling; Clinker has no alias for it
        raise fail("E376", "'type: output' is not a node type: the terminal node is "
                   "'type: sink'", kind_node.loc, "write `type: sink`")
    if kind not in NODE_KINDS:
        raise fail("E000", f"unknown node type '{kind}'", kind_node.loc,
                   f"expected one of: {', '.join(NODE_KINDS)}")
    name = f.str("name", required=True)
    check_name(name, f"the name of a {kind} node", f.node.get("name").loc)
    what = f"{kind} node '{name}'"
    common = dict(name=name, kind=kind, loc=f.loc, description=f.str("description"))
    f.raw("_notes")
    if kind in ("envelope", "composition"):  # a composition left: not expanded
        for key in list(f.node.entries):
            f.raw(key)
        raise fail("CS001", f"{kind} nodes are not supported by clinker-sql yet", kind_node.loc)
    builder = _BUILDERS[kind]
    result = builder(f, what, common, ctx)
    f.done()
    return result


def _no_input(f: Fields, what: str) -> None:
    for key in ("input", "inputs"):
        if f.has(key):
            f.raw(key)
            raise fail("E000", f"{what} takes no '{key}'", f.key_loc(key))


def _single_input(f: Fields, what: str) -> m.Ref:
    if f.has("inputs"):
        f.raw("inputs")
        raise fail("E000", f"{what} takes a single 'input:', not 'inputs:'", f.key_loc("inputs"))
    return _ref(f.raw("input", required=True), f"'input' of {what}")


def _source(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    _no_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    cfg_name = c.str("name", default=common["name"])
    fmt = c.str("type", required=True)
    if fmt in ("ndjson",):
        raise fail("E000", "there is no 'type: ndjson'", c.node.get("type").loc,
                   "write `type: json` with `options: {format: ndjson}`")
    if fmt not in ("csv", "json", "parquet", "fixed_width", "xml"):
        raise fail("CS001", f"source format '{fmt}' is not supported by clinker-sql",
                   c.node.get("type").loc, "supported: csv, json, parquet, fixed_width, xml")
    matchers = [k for k in ("path", "glob", "regex", "paths") if c.has(k)]
    if len(matchers) > 1:
        raise fail("E210", f"{what} declares {', '.join(matchers)}; give exactly one",
                   c.key_loc(matchers[1]))
    if not matchers:
        raise fail("E211", f"{what} declares none of path/glob/regex/paths", c.loc)
    kind = matchers[0]
    if kind == "paths":
        paths, _ = c.str_list("paths")
    else:
        paths = [c.str(kind, required=True)]
    csv_opts, json_opts, line_sep = m.CsvOptions(), m.JsonOptions(), "lf"
    xml_opts = m.XmlOptions()
    opts = c.raw("options")
    if fmt == "xml":
        xml_opts = _xml_source_options(opts, what, c)
    elif opts is not None:
        o = Fields(opts, f"options of {what}")
        if fmt == "csv":
            csv_opts = m.CsvOptions(delimiter=o.str("delimiter", default=","),
                                    quote_char=o.str("quote_char", default='"'),
                                    has_header=o.bool("has_header", True),
                                    encoding=o.choice("encoding", ("utf-8", "utf8", "iso-8859-1",
                                                                   "latin-1", "latin1"), "utf-8"))
            for key, val in (("delimiter", csv_opts.delimiter),
                             ("quote_char", csv_opts.quote_char)):
                if len(val.encode()) != 1:
                    raise fail("E000", f"'{key}' must be one ASCII character", o.key_loc(key))
        elif fmt == "json":
            json_opts = m.JsonOptions(format=o.choice("format", ("array", "ndjson", "object")),
                                      record_path=o.str("record_path"))
            _check_record_path(json_opts.record_path, what, o.key_loc("record_path"))
        elif fmt == "fixed_width":
            line_sep = fixed_width.line_separator(o)
        o.done()
    if not c.has("schema"):
        raise fail("E201", f"{what} has no schema: block", c.loc)
    if fmt == "fixed_width":
        fixed_width.refuse_multi_record(c.node.get("schema"))
    schema = _schema(c.raw("schema"), what, ctx,
                     layout="source" if fmt == "fixed_width" else None)
    ck, ck_node = c.str_list("correlation_key", allow_single=True)
    if ck_node is not None and not ck:
        raise fail("E000", "correlation_key must not be empty", ck_node.loc)
    on_unmapped = c.raw("on_unmapped")
    unmapped = "auto_widen"
    if on_unmapped is not None:
        u = Fields(on_unmapped, "on_unmapped")
        unmapped = u.choice("mode", ("auto_widen", "drop", "reject"), "auto_widen")
        u.done()
    watermark, delay = _watermark(c, schema, what)
    granularity = c.choice("dlq_granularity", ("record", "document"), "record")
    sorted_by, on_unsorted = _source_order(c, schema, common["name"])
    files, recursive = _file_controls(c, what)
    filters = file_filters.parse(c, paths[0] if kind == "regex" else None, recursive, what)
    splits = multi_value.split_values(c.raw("split_values"), what, fmt)
    fan_out = multi_value.split_to_rows(c.raw("split_to_rows"), what) \
        if fmt in ("json", "xml") else ()
    if c.has("array_paths"):  # Clinker's source_node_faults
        raise fail("E360", f"{what} declares `array_paths:`, which the multi-value declarations "
                   "replaced and which is no longer read", c.key_loc("array_paths"),
                   "an `explode` path becomes a `split_to_rows:` entry, a delimited cell a "
                   "`split_values:` entry, and a path kept as an array `multiple: true`")
    if c.has("split_to_rows") and fmt not in ("json", "xml"):
        raise fail("E358", f"{what}: `split_to_rows` is declared on a `{fmt}` source, whose "
                   "reader is never handed it: it would be a silent no-op",
                   c.key_loc("split_to_rows"), "remove the block")
    _file_transport(c, what)
    c.refuse(("envelope", "resource"), "source '{key}' is not supported yet")
    c.done()
    cfg = m.SourceConfig(name=cfg_name, format=fmt, paths=tuple(paths), path_kind=kind,
                         schema=schema, correlation_key=tuple(ck),
                         correlation_key_loc=ck_node.loc if ck_node else None,
                         csv=csv_opts, json=json_opts, xml=xml_opts, on_unmapped=unmapped,
                         watermark=watermark, watermark_delay_us=delay,
                         document_dlq=c.key_loc("dlq_granularity")
                         if granularity == "document" else None,
                         sort_order=sorted_by, on_unsorted=on_unsorted, files=files,
                         filters=filters,
                         split_values=splits, line_separator=line_sep,
                         split_to_rows=fan_out if fmt == "xml" else ())
    multi_value.check_source(cfg, what, c.loc, fan_out)
    return m.SourceNode(**common, config=cfg)


def _file_transport(c: Fields, what: str) -> None:
    """`transport:` (Clinker's SourceTransport): `file`, the default, written bare or as
    `{kind: file}`, changes nothing and is accepted; `{kind: rest, ...}` is refused."""
    node = c.raw("transport")
    if node is None:
        return
    if isinstance(node, YScalar) and node.value == "file":
        return
    if isinstance(node, YMap):
        t = Fields(node, f"transport of {what}")
        kind = t.choice("kind", ("file", "rest"), required=True)
        if kind == "rest":
            raise fail("CS001", f"{what}: the rest transport is not supported by clinker-sql",
                       c.key_loc("transport"))
        t.done()
        return
    raise fail("E000", f"unknown transport of {what}; the bare scalar form only accepts "
               "`file`", node.loc, "the rest transport is written `transport: {kind: rest, ...}`")


def _check_record_path(path: str | None, what: str, loc: Location | None) -> None:
    """E363 (Clinker's record_path_faults): a JSON `record_path` is a dot path, with no
    JSONPath root `$.`, no leading `/` and no empty segment."""
    if path is None:
        return
    why = ("is empty" if path == "" else
           "starts with the JSONPath root marker `$.`" if path.startswith("$") else
           "starts with `/`" if path.startswith("/") else
           "has an empty segment" if "" in path.split(".") else None)
    if why is not None:
        raise fail("E363", f"{what}: record_path {path!r} {why}; a JSON record_path is a dot "
                   "path of object keys", loc, "write it as `data.rows`")


_XML_NAME = re.compile(r"[A-Za-z_:\u00C0-\uFFFF][A-Za-z0-9_:.\-\u00B7\u00C0-\uFFFF]*")


def _xml_source_options(opts, what: str, c: Fields) -> m.XmlOptions:
    """An XML source's `options:` (Clinker's XmlReaderConfig): `record_path` checked as
    Clinker's record_path_faults does (E363), `attribute_prefix`, `namespace_handling`
    (`strip`; `qualify` is refused) and `max_index_bytes` (read only by an envelope)."""
    if opts is None:
        raise fail("CS001", f"{what}: an XML source without `options: {{record_path: ...}}` "
                   "is not supported (Spark's XML reader selects records by element name)",
                   c.loc, "name the record elements' path, e.g. `record_path: catalog/product`")
    o = Fields(opts, f"options of {what}")
    path = o.str("record_path")
    prefix = o.str("attribute_prefix", default="@")
    ns = o.choice("namespace_handling", ("strip", "qualify"), "strip")
    o.raw("max_index_bytes")
    loc = o.key_loc("record_path")
    if path is None:
        raise fail("CS001", f"{what}: an XML source without `record_path` is not supported "
                   "(Spark's XML reader selects records by element name)", o.loc,
                   "name the record elements' path, e.g. `record_path: catalog/product`")
    segments = path.split("/")
    why = ("is empty" if path == "" else
           "starts with `/` (it is anchored at the document element already)"
           if path.startswith("/") else
           "holds `//`, a descendant step" if "//" in path else
           "has an empty segment" if "" in segments else
           "holds an XPath predicate, axis or wildcard"
           if any(ch in path for ch in "[]*@()") or "::" in path else
           "has a segment that is not an XML element name"
           if not all(_XML_NAME.fullmatch(seg) for seg in segments) else None)
    if why is not None:
        fixed = "/".join(seg for seg in path.split("/") if seg) if path.strip("/") else None
        raise fail("E363", f"{what}: record_path {path!r} {why}; an XML record_path is a "
                   "slash path of element names from the document element", loc,
                   f"write it as {fixed!r}" if fixed and fixed != path else "")
    if ns == "qualify":
        raise fail("CS001", f"{what}: namespace_handling: qualify is not supported (Spark's "
                   "XML reader strips namespace prefixes)", o.key_loc("namespace_handling"))
    if any(":" in seg for seg in segments):
        raise fail("CS001", f"{what}: a namespace-qualified record_path segment is not "
                   "supported (namespace_handling: strip matches local names)", loc)
    o.done()
    return m.XmlOptions(record_path=path, attribute_prefix=prefix)


def _xml_sink_options(opts, what: str, c: Fields) -> m.XmlSinkOptions:
    """An XML sink's `options:` (Clinker's XmlWriterConfig): `root_element`,
    `record_element` (each an XML name, which Clinker's writer checks as it opens the
    document) and `attribute_prefix` (an empty one is refused)."""
    if opts is None:
        return m.XmlSinkOptions()
    o = Fields(opts, f"options of {what}")
    out = m.XmlSinkOptions(o.str("root_element", default="Root"),
                           o.str("record_element", default="Record"),
                           o.str("attribute_prefix", default="@"))
    for key, name in (("root_element", out.root_element),
                      ("record_element", out.record_element)):
        if not _XML_NAME.fullmatch(name):
            raise fail("E000", f"{what}: {key} {name!r} is not an XML element name",
                       o.key_loc(key))
    if out.attribute_prefix == "":
        raise fail("CS001", f"{what}: an empty attribute_prefix is not supported",
                   o.key_loc("attribute_prefix"))
    o.done()
    return out


def _xml_join_values(node: YNode, what: str) -> tuple[tuple[str, str | None, str | None], ...]:
    """An XML sink's `join_values:` (Clinker's XmlRepeat): each entry's `field`, the
    per-item element name `repeat_as` and the container `wrap_in`, each an XML name; the
    CSV-only keys `delimiter`, `on_conflict` and `escape` are read and ignored, as
    Clinker's XML writer ignores them."""
    if not isinstance(node, YSeq):
        raise fail("E000", f"join_values of {what} must be a list", node.loc)
    out: list[tuple[str, str | None, str | None]] = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            entry = (item.value, None, None)
            loc = item.loc
        else:
            f = Fields(item, f"an entry of join_values of {what}")
            entry = (f.str("field", required=True), f.str("repeat_as"), f.str("wrap_in"))
            for key in ("delimiter", "on_conflict", "escape"):
                f.raw(key)
            for key, name in (("repeat_as", entry[1]), ("wrap_in", entry[2])):
                if name is not None and not _XML_NAME.fullmatch(name):
                    raise fail("E362", f"{what}: join_values {key} {name!r} is not an XML "
                               "element name", f.key_loc(key))
            loc = f.loc
            f.done()
        if any(e[0] == entry[0] for e in out):
            raise fail("E362", f"{what}: `join_values` declares field '{entry[0]}' twice",
                       loc, "declare each field once")
        out.append(entry)
    return tuple(out)


def _file_controls(c: Fields, what: str) -> tuple[m.FileControls, bool | None]:
    """A source's `files:` (Clinker's FileListingControls): sort_by name (created and
    modified times are refused), sort_order, take_first / take_last (both: E218, as
    Clinker's discovery checks first), on_no_match; and its `recursive` (None: not
    given), which only a `regex:` walk reads (config/discovery.py)."""
    node = c.raw("files")
    if node is None:
        return m.FileControls(), None
    f = Fields(node, f"files of {what}")
    if f.has("take_first") and f.has("take_last"):
        raise fail("E218", f"{what}: files.take_first and files.take_last are mutually "
                   "exclusive", f.loc, "keep one of them")
    sort_by = f.choice("sort_by", ("name", "created", "modified"), "name")
    if sort_by != "name":
        raise fail("CS001", f"files.sort_by: {sort_by} is not supported yet (files are read "
                   "in name order)", f.key_loc("sort_by"))
    desc = f.choice("sort_order", ("asc", "desc"), "asc") == "desc"
    take = None
    for side in ("first", "last"):
        n = f.int(f"take_{side}")
        if n is not None:
            if n < 0:
                raise fail("E000", f"files.take_{side} must be a count of files", f.key_loc(
                    f"take_{side}"))
            take = (side, n)
    recursive = f.bool("recursive", None)
    on_no_match = f.choice("on_no_match", ("error", "warn", "skip"), "error")
    f.done()
    return m.FileControls(desc=desc, take=take, on_no_match=on_no_match, loc=f.loc), recursive


def _source_order(c: Fields, schema: tuple[m.Column, ...], name: str
                  ) -> tuple[tuple[m.SortKey, ...], str]:
    """A source's `sort_order` (the order of the records inside each file) and its
    `on_unsorted` policy, checked as Clinker's validate_source_sort_policy does."""
    policy = c.choice("on_unsorted", ("warn", "error"))
    node = c.raw("sort_order")
    if node is None:
        if policy is not None:
            raise fail("E000", f"source '{name}' sets `on_unsorted` without a record-level "
                       "`sort_order`", c.key_loc("on_unsorted"),
                       f"add `sort_order: [{schema[0].name}]` or remove `on_unsorted`")
        return (), "warn"
    keys = sort_keys(node, f"sort_order of source '{name}'")
    names = [col.name for col in schema]
    for k in keys:
        if k.null_order == "drop":
            raise fail("E000", f"source '{name}' uses `null_order: drop` for sort field "
                       f"'{k.field}'; source verification cannot discard records", k.loc,
                       "use `null_order: first` or `null_order: last`")
        if k.field not in names:
            raise fail("E000", f"source '{name}' sort field '{k.field}' is not declared by "
                       "its schema", k.loc, f"choose one of: {', '.join(names)}")
    return keys, policy or "warn"


def _watermark(c: Fields, schema: tuple[m.Column, ...], what: str
               ) -> tuple[tuple[Location, str] | None, int]:
    """A source's `watermark:` and its delay in microseconds; its column must be a date or
    date_time of the schema (E154, E155, Clinker's bind_schema)."""
    node = c.raw("watermark")
    if node is None:
        return None, 0
    w = Fields(node, f"watermark of {what}")
    column = w.str("column", required=True)
    _duration(w, "idle_timeout")  # a live source's idleness: a batch source is never idle
    delay = _duration(w, "delay")  # Clinker's WatermarkConfig: column, idle_timeout, delay
    w.done()
    col = next((col for col in schema if col.name == column), None)
    if col is None:
        raise fail("E154", f"{what} declares watermark.column = '{column}' but the column is "
                   "not present in its `schema:` block", w.loc,
                   "add the watermark column to the schema, or remove `watermark:`")
    if col.type not in ("date", "date_time") or col.multiple:  # `multiple`: an array
        shown = f"array<{col.type}>" if col.multiple else col.type
        raise fail("E155", f"{what} declares watermark.column = '{column}' but its declared "
                   f"type {shown} is not event-time-coercible; watermark columns must be "
                   "`date_time` or `date`", w.loc)
    return (c.key_loc("watermark"), column), delay or 0


_DURATION = re.compile(r"\s*(?:(\+?[0-9]+)\s*ms|(\+?[0-9]+)\s*([smhd]))\s*")
_UNIT_US = {"s": 10**6, "m": 60 * 10**6, "h": 3600 * 10**6, "d": 86400 * 10**6}


def _duration(c: Fields, key: str, required: bool = False) -> int | None:
    """A duration (`500ms`, `30s`, `5m`, `2h`, `3d`: Clinker's parse_duration_with_suffix)
    in microseconds; None when absent."""
    text = c.str(key, required=required)
    if text is None:
        return None
    found = _DURATION.fullmatch(text)
    if found is None or int(found[1] or found[2]) >= 2 ** 64:
        raise fail("E000", f"'{key}' in {c.what} expects a duration like \"500ms\"/\"30s\"/"
                   f"\"5m\"/\"2h\"/\"3d\"; got {text!r}", c.raw(key).loc)
    if found[1] is not None:
        return int(found[1]) * 1000
    return int(found[2]) * _UNIT_US[found[3]]


def _time_window(c: Fields, what: str) -> m.TimeWindow | None:
    """An aggregate's `time_window:` (one of `tumbling: {size}`, `hopping: {size, slide}`,
    `session: {gap}`) and its `allowed_lateness:`."""
    node = c.raw("time_window")
    lateness = _duration(c, "allowed_lateness") or 0
    if node is None:
        return None
    w = Fields(node, f"time_window of {what}")
    kinds = [k for k in ("tumbling", "hopping", "session") if w.has(k)]
    if len(kinds) != 1:
        raise fail("E000", f"time_window of {what} must name exactly one of tumbling, "
                   "hopping, session", w.loc)
    kind = kinds[0]
    spec = Fields(w.raw(kind), f"time_window.{kind} of {what}")
    w.done()
    size = _duration(spec, "gap" if kind == "session" else "size", required=True)
    slide = _duration(spec, "slide", required=True) if kind == "hopping" else 0
    spec.done()
    if not size or (kind == "hopping" and not slide):  # Clinker stops the run on them
        raise fail("E000", f"time_window.{kind} of {what}: durations must be > 0", spec.loc)
    return m.TimeWindow(c.key_loc("time_window"), kind, size or 0, slide or 0, lateness)


def _schema_file(node: YScalar, what: str, ctx: _Ctx) -> YNode:
    """An external `.schema.yaml` (`schema: ./orders.schema.yaml`): the same column list,
    read at load, from a path relative to the working directory (as Clinker's
    load_source_schema reads it), checked first as every path of the pipeline is
    (E-SEC-001, CS108). A schema file may not name another."""
    check_path(node.value, f"{what}: schema file", node.loc, ctx.allow_absolute_paths)
    check_symlink(node.value, f"{what}: schema file", node.loc, Path.cwd(),
                  ctx.allow_absolute_paths)
    path = Path(node.value)
    check_regular(path, f"{what}: schema file", node.value, node.loc)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail("E000", f"{what}: failed to load schema file '{node.value}': "
                   f"{exc.strerror or exc}", node.loc, "the path is relative to the working "
                   "directory") from None
    loaded = load_yaml(text, str(path))
    if isinstance(loaded, YScalar) and isinstance(loaded.value, str):
        raise fail("E000", f"{what}: schema file '{node.value}' points at another schema file "
                   f"{shown(loaded.value)}; nested schema files are not allowed", loaded.loc,
                   "inline the columns")
    return loaded


def _schema(node: YNode, what: str, ctx: _Ctx, layout: str | None = None
            ) -> tuple[m.Column, ...]:
    """A column list; `layout` ("source" or "sink"): a fixed-width source's or sink's,
    each column with its byte range (config/fixed_width.py)."""
    if isinstance(node, YScalar) and isinstance(node.value, str):
        node = _schema_file(node, what, ctx)
    if isinstance(node, YMap) and "generated" in node.entries:
        raise fail("E159", f"schema of {what} is `generated`, which only an EDI source can "
                   "use", node.loc, "declare the columns as a list")
    if not isinstance(node, YSeq) or not node.items:
        raise fail("E000", f"schema of {what} must be a non-empty list of columns", node.loc)
    cols: list[m.Column] = []
    seen: set[str] = set()
    for item in node.items:
        c = Fields(item, f"a schema column of {what}")
        name = c.str("name", required=True)
        check_name(name, f"a column name of {what}", c.node.get("name").loc)
        if name.startswith("$"):
            raise fail("E000", f"column name '{name}' starts with '$', which is reserved for "
                       "engine columns", c.loc)
        if name in seen:
            raise fail("E000", f"column '{name}' is declared twice", c.loc)
        seen.add(name)
        type_node = c.raw("type", required=True)
        ctype, nullable = _column_type(type_node)
        precision, scale = _decimal_digits(c, name, ctype)
        fmt = c.str("format")
        source_name = c.str("source_name")
        multiple = c.bool("multiple", False)
        fixed = fixed_width.column_layout(c, name) if layout == "source" else \
            fixed_width.sink_column_layout(c, name, ctype) if layout == "sink" else None
        c.bool("long_unique")  # Clinker's in-memory storage hint: nothing to do in Spark
        c.refuse(("required", "default", "coerce", "enum") + (
            () if layout else ("start", "width", "end", "justify", "pad")),
            "column option '{key}' is not supported yet")
        c.done()
        if fmt is not None and ctype not in ("date", "date_time"):
            raise fail("E000", "'format' applies to date and date_time columns only", c.loc)
        if multiple and ctype in ("array", "map"):
            raise fail("CS001", f"column '{name}': `multiple: true` on a column of type "
                       f"{ctype} is not supported", c.loc)
        if fixed is not None and (multiple or ctype in ("array", "map")):
            raise fail("CS001", f"column '{name}': a fixed-width column of type {ctype}"
                       f"{' with `multiple: true`' * multiple} is not supported", c.loc)
        cols.append(m.Column(name, ctype, nullable, c.loc, fmt, precision, scale, source_name,
                             multiple, fixed))
    return tuple(cols)


def _decimal_digits(c: Fields, name: str, ctype: str) -> tuple[int | None, int | None]:
    """`precision` and `scale`: Clinker reads each as a number from 0 to 255; a decimal
    column with a scale becomes Spark's DECIMAL(p, s), which holds at most 38 digits and
    a scale no larger than its precision."""
    digits = []
    for key in ("precision", "scale"):
        value = c.int(key)
        if value is not None and not 0 <= value <= 255:
            raise fail("E000", f"'{key}' of column '{name}' must be a whole number from 0 to "
                       f"255, found {value}", c.key_loc(key))
        digits.append(value)
    precision, scale = digits
    total = precision or 38
    if ctype == "decimal" and scale is not None and (total > 38 or scale > total):
        raise fail("CS001", f"column '{name}': a decimal of precision {total} and scale "
                   f"{scale} is not supported: Spark's DECIMAL holds at most 38 digits, with "
                   "the scale no larger than the precision", c.key_loc("scale"))
    return precision, scale


def _column_type(node: YNode) -> tuple[str, bool]:
    if isinstance(node, YMap):
        f = Fields(node, "a column type")
        inner = f.raw("nullable", required=True)
        f.done()
        ctype, _ = _column_type(inner)
        return ctype, True
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        raise fail("E000", "a column type must be a type name or {nullable: T}", node.loc)
    value = node.value
    if value == "numeric":
        raise fail("E158", "column type 'numeric' is not a concrete type", node.loc)
    if value.startswith("nullable(") and value.endswith(")"):
        raise fail("E000", f"write `{{nullable: {value[9:-1]}}}` instead of `{value}`", node.loc)
    aliases = {"datetime": "date_time", "integer": "int", "boolean": "bool", "str": "string"}
    value = aliases.get(value, value)
    if value not in m.COLUMN_TYPES:
        raise fail("E000", f"unknown column type '{node.value}'", node.loc,
                   f"expected one of: {', '.join(m.COLUMN_TYPES)}")
    return value, value == "null"


def _transform(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    ref = _single_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    cxl = cxl_source(c.raw("cxl", required=True), f"cxl of {what}", ctx)
    window = None
    wnode = c.raw("analytic_window")
    if wnode is not None:
        w = Fields(wnode, "analytic_window")
        group_by, _ = w.str_list("group_by")
        sort_node = w.raw("sort_by")
        sort_by = []
        if sort_node is not None:
            if not isinstance(sort_node, YSeq):
                raise fail("E000", "sort_by must be a list of {field, order}", sort_node.loc)
            for item in sort_node.items:
                s = Fields(item, "a sort_by entry")
                sort_by.append((s.str("field", required=True),
                                s.choice("order", ("asc", "desc"), "asc")))
                s.done()
        w.refuse(("source", "on"), "cross-source windows ('{key}') are not supported yet")
        w.done()
        window = m.AnalyticWindow(tuple(group_by), tuple(sort_by), w.loc)
    c.raw("validations")  # parsed but never evaluated by Clinker either
    log = _log_directives(c.raw("log"), what, ctx)
    c.raw("batch_size")
    max_expansion = c.int("max_expansion", 10_000)
    if max_expansion < 0:
        raise fail("E000", "max_expansion must be a non-negative integer",
                   c.node.get("max_expansion").loc)
    c.refuse(("declares", "phase"), "transform '{key}' is not supported yet")
    c.done()
    return m.TransformNode(**common, input=ref, cxl=cxl, analytic_window=window,
                           max_expansion=max_expansion, log=log)


def _log_directives(node: YNode | None, what: str, ctx: _Ctx) -> tuple[m.LogDirective, ...]:
    """A transform's `log:` list. Events are observability only (clinker-sql emits none),
    but the selectors and conditions are kept for the checks Clinker makes (E373, E374)."""
    if node is None:
        return ()
    if not isinstance(node, YSeq):
        raise fail("E000", f"log of {what} must be a list of directives", node.loc)
    out = []
    for item in node.items:
        d = Fields(item, f"a log directive of {what}")
        name = d.str("name", required=True)
        d.str("message", required=True)
        d.choice("level", ("trace", "debug", "info", "warn", "error"), required=True)
        d.choice("when", ("before_transform", "after_transform", "per_record", "on_error"),
                 required=True)
        d.int("every")
        fields, _ = d.str_list("fields")
        cond = d.raw("condition")
        condition = cxl_source(cond, f"log condition of {what}", ctx) if cond else None
        d.done()
        out.append(m.LogDirective(name, tuple(fields), condition, d.loc))
    return tuple(out)


def _aggregate(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    ref = _single_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    if not c.has("group_by"):
        raise fail("E000", f"{what} is missing the required field 'group_by'", c.loc)
    group_by, _ = c.str_list("group_by")
    cxl = cxl_source(c.raw("cxl", required=True), f"cxl of {what}", ctx)
    strategy = c.choice("strategy", ("auto", "hash", "streaming"), "auto")
    time_window = _time_window(c, what)
    c.raw("batch_size")
    c.done()
    return m.AggregateNode(**common, input=ref, group_by=tuple(group_by), cxl=cxl,
                           strategy=strategy, time_window=time_window)


def _route(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    ref = _single_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    mode = c.choice("mode", ("exclusive", "inclusive"), "exclusive")
    cond_node = c.raw("conditions", required=True)
    if not isinstance(cond_node, YMap) or not cond_node.entries:
        raise fail("E000", "route conditions must be a non-empty mapping branch: CXL",
                   cond_node.loc)
    for name, (key, _) in cond_node.entries.items():
        check_name(name, f"a branch name of {what}", key.loc)
    conditions = tuple((name, cxl_source(value, f"condition '{name}'", ctx))
                       for name, (_, value) in cond_node.entries.items())
    default = c.str("default", required=True)
    c.done()
    return m.RouteNode(**common, input=ref, mode=mode, conditions=conditions, default=default)


def _cull(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    """A cull (Clinker's CullBody): partition_by, order_by, rules, removed_to."""
    ref = _single_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    partition_by, node = c.str_list("partition_by")
    if node is None:
        raise fail("E000", f"{what}: missing field `partition_by`", c.loc,
                   "list the fields that form a group (`[]`: the whole input)")
    order_node = c.raw("order_by")
    order_by = sort_keys(order_node, f"order_by of {what}") if isinstance(
        order_node, YSeq) and order_node.items else ()
    rules_node = c.raw("rules", required=True)
    if not isinstance(rules_node, YSeq):
        raise fail("E000", f"'rules' of {what} must be a list", rules_node.loc)
    rules = []
    for item in rules_node.items:
        r = Fields(item, f"a rule of {what}")
        name = r.str("name", required=True)
        rules.append((name, cxl_source(r.raw("drop_group_when", required=True),
                                       f"drop_group_when of rule '{name}'", ctx)))
        r.done()
    removed_to = c.str("removed_to", required=True)
    check_name(removed_to, f"removed_to of {what}", c.key_loc("removed_to"))
    c.done()
    name = common["name"]
    if not rules:  # Clinker's bind_cull
        raise fail("E200", f"cull {name!r}: rules must contain at least one removal rule",
                   rules_node.loc, "add a rule with a `drop_group_when:` predicate, or remove "
                   "the Cull node entirely")
    if not removed_to.strip():
        raise fail("E200", f"cull {name!r}: removed_to must name a non-empty side-output port",
                   c.key_loc("removed_to"))
    if removed_to == name:
        raise fail("E200", f"cull {name!r}: removed_to {removed_to!r} collides with the node's "
                   "own name (the main output port)", c.key_loc("removed_to"),
                   "rename `removed_to:` to a distinct port name")
    return m.CullNode(**common, input=ref, partition_by=tuple(partition_by), order_by=order_by,
                      rules=tuple(rules), removed_to=removed_to)


def _merge(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    if f.has("input"):
        f.raw("input")
        raise fail("E000", f"{what} takes 'inputs:' (a list), not 'input:'", f.key_loc("input"))
    node = f.raw("inputs", required=True)
    if not isinstance(node, YSeq) or not node.items:
        raise fail("E000", f"'inputs' of {what} must be a non-empty list", node.loc)
    refs = tuple(_ref(item, f"an input of {what}") for item in node.items)
    cfg = f.raw("config")
    if cfg is not None:
        c = Fields(cfg, f"config of {what}")
        # unseeded interleave is arrival order (pipeline-spec: merge), which fixes no order
        # between the inputs: the concat order is one of its orders
        c.choice("mode", ("concat", "interleave"), "concat")
        if c.has("interleave_seed"):  # a fixed order of Clinker's, not reproduced here
            seed = c.raw("interleave_seed")
            value = seed.value if isinstance(seed, YScalar) else None
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise fail("E000", f"interleave_seed of {what} must be a non-negative integer",
                           c.key_loc("interleave_seed"))
            ctx.warn("CS052", f"{what}: its rows are the same as Clinker's seeded interleave "
                     "gives, in another order (only order-sensitive steps after it differ)",
                     c.key_loc("interleave_seed"),
                     "sort where order matters (a sink's sort_order, a window's sort_by)")
        c.done()
    return m.MergeNode(**common, merge_inputs=refs)


def _combine(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    if f.has("inputs"):
        f.raw("inputs")
        raise fail("E000", f"{what} takes 'input:' (a map of qualifier: node), not 'inputs:'",
                   f.key_loc("inputs"))
    node = f.raw("input", required=True)
    if not isinstance(node, YMap):
        raise fail("E000", f"'input' of {what} must be a map of qualifier: node", node.loc)
    inputs = tuple((q, _ref(v, f"input '{q}' of {what}")) for q, (_, v) in node.entries.items())
    c = Fields(f.raw("config", required=True), f"config of {what}")
    where = cxl_source(c.raw("where", required=True), f"where of {what}", ctx)
    cxl_node = c.raw("cxl", required=True)
    cxl = cxl_source(cxl_node, f"cxl of {what}", ctx)
    match = c.choice("match", ("first", "all", "collect"), "first")
    on_miss = c.choice("on_miss", ("null_fields", "skip", "error"), "null_fields")
    drive = c.str("drive")
    c.choice("strategy", ("auto", "grace_hash"), "auto")
    pck = c.raw("propagate_ck", required=True)
    propagate: object
    if isinstance(pck, YScalar) and pck.value in ("driver", "all"):
        propagate = pck.value
    elif isinstance(pck, YMap):
        p = Fields(pck, "propagate_ck")
        named, _ = p.str_list("named")
        p.done()
        propagate = ("named", tuple(named))
    else:
        raise fail("E000", "propagate_ck must be driver, all or {named: [...]}", pck.loc)
    cap = c.int("max_output_rows")
    if cap is not None and cap < 0:
        raise fail("E000", "max_output_rows must be a non-negative integer",
                   c.key_loc("max_output_rows"))
    c.refuse(("correlation_fanout_policy",), "combine '{key}' is not supported yet")
    c.done()
    return m.CombineNode(**common, combine_inputs=inputs, where=where, cxl=cxl, match=match,
                         on_miss=on_miss, drive=drive, propagate_ck=propagate,
                         max_output_rows=cap)


def _sink(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    ref = _single_input(f, what)
    c = Fields(f.raw("config", required=True), f"config of {what}")
    cfg_name = c.str("name", default=common["name"])
    fmt = c.str("type", required=True)
    if fmt not in ("csv", "json", "parquet", "table", "xml", "fixed_width"):
        raise fail("CS001", f"sink format '{fmt}' is not supported by clinker-sql",
                   c.node.get("type").loc,
                   "supported: csv, json, parquet, table, xml, fixed_width")
    if fmt == "table":
        return _table_sink(f, c, ref, cfg_name, common)
    path_node = c.raw("path", required=True)
    if not isinstance(path_node, YScalar) or not isinstance(path_node.value, str):
        raise fail("E000", "sink path must be a string", path_node.loc)
    template = None
    if "{" in path_node.value or "}" in path_node.value:  # rendered by config/sink_paths.py
        template = path_template.parse(path_node.value, path_node.loc)
    delimiter, json_format, pretty, line_sep = ",", "array", False, "lf"
    opts = c.raw("options")
    xml = _xml_sink_options(opts, what, c) if fmt == "xml" else None
    if opts is not None and fmt != "xml":
        o = Fields(opts, f"options of {what}")
        if fmt == "fixed_width":
            line_sep = fixed_width.sink_options(o)
        elif fmt == "csv":
            delimiter = o.str("delimiter", default=",")
            if len(delimiter.encode()) != 1:
                raise fail("E000", "'delimiter' must be one ASCII character",
                           o.key_loc("delimiter"))
        elif fmt == "json":
            json_format = o.choice("format", ("array", "ndjson"), "array")
            pretty = o.bool("pretty", False)
        o.done()
    mapping = None
    map_node = c.raw("mapping")
    if map_node is not None:
        mapping = _mapping(map_node)
    exclude, _ = c.str_list("exclude")
    cfg = m.SinkConfig(
        name=cfg_name, format=fmt, path=path_node.value, path_loc=path_node.loc,
        include_unmapped=c.bool("include_unmapped", True),
        include_header=c.bool("include_header", True),
        include_correlation_keys=c.bool("include_correlation_keys", False),
        exclude=tuple(exclude), mapping=mapping, delimiter=delimiter, json_format=json_format,
        json_pretty=pretty, preserve_nulls=c.bool("preserve_nulls", False),
        correlation_fanout_policy=c.choice("correlation_fanout_policy", ("any", "all", "primary")),
        template=template, xml=xml, line_separator=line_sep,
    )
    cfg = _sink_files(c, cfg, what)
    sort_node = c.raw("sort_order")
    if sort_node is not None:
        cfg = replace(cfg, sort_order=sort_keys(sort_node, f"sort_order of {what}"))
    schema_node = c.raw("schema")
    if fmt == "fixed_width":  # the layout of its lines (config/fixed_width.py)
        if schema_node is None:
            raise fail("E000", f"{what}: fixed-width output format requires an explicit "
                       "`schema:` column list", c.loc, "declare each column's name, type and "
                       "width (or start and end)")
        if isinstance(schema_node, YMap):  # a multi-record or generated schema
            raise fail("E000", f"{what}: fixed-width output schema must be a single-record "
                       "column list (not a multi-record or generated schema)",
                       schema_node.loc)
        cfg = replace(cfg, schema=fixed_width.resolve_sink(
            _schema(schema_node, what, ctx, layout="sink")))
    elif schema_node is not None:
        cfg = replace(cfg, schema=_schema(schema_node, what, ctx))
    if fmt == "xml" and c.has("join_values"):
        cfg = replace(cfg, xml=replace(cfg.xml, repeats=_xml_join_values(
            c.raw("join_values"), what)))
    joins = multi_value.join_values(c.raw("join_values"), fmt, what) if fmt != "xml" else ()
    if joins:
        cfg = replace(cfg, join_values=joins)
    c.refuse(("write_meta", "reconstruct_envelope"), "sink '{key}' is not supported yet")
    c.done()
    return m.SinkNode(**common, input=ref, config=cfg)


def _sink_files(c: Fields, cfg: m.SinkConfig, what: str) -> m.SinkConfig:
    """A file sink's `split:` (config/sink_split.py), `if_exists` and
    `unique_suffix_width`."""
    if_exists = c.choice("if_exists", ("overwrite", "error", "unique_suffix"), "overwrite")
    width = c.int("unique_suffix_width", 0)
    if not 0 <= width <= 255:
        raise fail("E000", "unique_suffix_width must be a width from 0 to 255",
                   c.key_loc("unique_suffix_width"))
    cfg = replace(cfg, if_exists=if_exists, unique_suffix_width=width)
    node = c.raw("split")
    if node is None:
        return cfg
    split = sink_split.parse_split(node, what)
    if cfg.format not in ("csv", "json"):
        raise fail("CS001", f"split: on a {cfg.format} sink is not supported yet",
                   c.key_loc("split"), "split a csv or json sink")
    if cfg.template is not None:
        raise fail("CS001", "split: on a sink whose path holds {tokens} is not supported yet",
                   c.key_loc("split"))
    return replace(cfg, split=split)


def sort_keys(node: YNode, what: str) -> tuple[m.SortKey, ...]:
    """A `sort_order:` list: each entry a field name or `{field, order, null_order}`."""
    if not isinstance(node, YSeq) or not node.items:
        raise fail("E000", f"{what} must be a non-empty list of fields", node.loc,
                   "write `- field` or `- { field: f, order: desc }`")
    keys: list[m.SortKey] = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            key = m.SortKey(item.value, loc=item.loc)
        else:
            k = Fields(item, f"an entry of {what}")
            key = m.SortKey(k.str("field", required=True),
                            k.choice("order", ("asc", "desc"), "asc") == "desc",
                            k.choice("null_order", ("first", "last", "drop"), "last"), k.loc)
            k.done()
        if any(x.field == key.field for x in keys):
            raise fail("E000", f"{what} repeats field '{key.field}'", key.loc,
                       "keep each key once")
        keys.append(key)
    return tuple(keys)


def _table_sink(f: Fields, c: Fields, ref: m.Ref, cfg_name: str, common: dict) -> m.Node:
    """`type: table` (clinker-sql's own): the rows go to a warehouse table, swapped in
    whole at the end of the run (codegen/sink.py)."""
    table_node = c.raw("table", required=True)
    value = table_node.value if isinstance(table_node, YScalar) else None
    parts = tuple(value.split(".")) if isinstance(value, str) else ()
    if not parts or len(parts) > 3 or any(not p.strip() or p != p.strip() for p in parts):
        raise fail("E000", "table must be a name such as `orders` or `sales.orders` "
                   "([catalog.][database.]table)", table_node.loc)
    if c.has("path"):
        c.raw("path")
        raise fail("E000", "a table sink writes a table, not a path: remove `path`",
                   c.key_loc("path"))
    mapping = None
    map_node = c.raw("mapping")
    if map_node is not None:
        mapping = _mapping(map_node)
    exclude, _ = c.str_list("exclude")
    cfg = m.SinkConfig(
        name=cfg_name, format="table", path="", path_loc=table_node.loc, table=parts,
        include_unmapped=c.bool("include_unmapped", True),
        include_correlation_keys=c.bool("include_correlation_keys", False),
        exclude=tuple(exclude), mapping=mapping,
        correlation_fanout_policy=c.choice("correlation_fanout_policy", ("any", "all", "primary")),
    )
    c.done()
    return m.SinkNode(**common, input=ref, config=cfg)


def _mapping(node: YNode) -> tuple[tuple[str, str], ...]:
    if isinstance(node, YMap):
        raise fail("E364", "mapping: must be an ordered list (`- col` or `- out: source`)",
                   node.loc)
    if not isinstance(node, YSeq) or not node.items:
        raise fail("E364", "mapping: must be a non-empty list", node.loc)
    out: list[tuple[str, str]] = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            out.append((item.value, item.value))
        elif isinstance(item, YMap) and len(item.entries) == 1:
            (key, (_, value)), = item.entries.items()
            if not isinstance(value, YScalar) or not isinstance(value.value, str):
                raise fail("E364", "a mapping entry must map a name to a column name", item.loc)
            out.append((key, value.value))
        else:
            raise fail("E364", "a mapping entry must be `col` or `out: col`", item.loc)
    names = [o for o, _ in out]
    if len(set(names)) != len(names):
        raise fail("E364", "mapping declares the same output column twice", node.loc)
    return tuple(out)


def _reshape(f: Fields, what: str, common: dict, ctx: _Ctx) -> m.Node:
    """A reshape (Clinker's ReshapeBody), read by config/reshape.py."""
    return parse_reshape(f, what, common, _single_input(f, what),
                         lambda node, w: cxl_source(node, w, ctx), sort_keys)


_BUILDERS = {"source": _source, "transform": _transform, "aggregate": _aggregate,
             "route": _route, "merge": _merge, "combine": _combine, "sink": _sink,
             "cull": _cull, "reshape": _reshape}
