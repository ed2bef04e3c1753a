"""Diagnostics: every user mistake becomes a coded message with a location.

Codes follow Clinker's registry where Clinker has one (E000-E377). Failures
Clinker reports without a code (I/O, a malformed CSV row, a missing JVM) get a
`CS` code of clinker-sql's own, so that every message a user sees is coded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# Exit codes, as Clinker's `pipeline_error_exit_code` (spec §5.2).
EXIT_OK = 0
EXIT_CONFIG = 1
EXIT_DLQ = 2
EXIT_EVAL = 3
EXIT_IO = 4
EXIT_INTERRUPTED = 130  # SIGINT or SIGTERM, as Clinker's signal handler
# a command line that does not parse (an unknown option, a missing argument); Clinker's
# parser exits 2 there, the code of a run with DLQ entries: 64 is sysexits' EX_USAGE
EXIT_USAGE = 64


@dataclass(frozen=True)
class CodeInfo:
    code: str
    summary: str
    exit_code: int = EXIT_CONFIG
    hint: str = ""


def _codes(*infos: CodeInfo) -> dict[str, CodeInfo]:
    return {i.code: i for i in infos}


CODES: dict[str, CodeInfo] = _codes(
    CodeInfo("E000", "pipeline YAML does not parse or has the wrong shape",
             hint="check the key against the pipeline spec; unknown keys are rejected"),
    CodeInfo("E001", "duplicate node name", hint="give every node a unique name"),
    CodeInfo("E002", "node lists itself as its input"),
    CodeInfo("E003", "cycle between nodes", hint="the node graph must be acyclic"),
    CodeInfo("E004", "input references a node that is not declared",
             hint="check the spelling of the input reference"),
    CodeInfo("E010", "node name contains a '.'",
             hint="'.' is reserved for branch references such as route.branch"),
    # compositions, channels and groups (config/composition.py, config/overlay.py)
    CodeInfo("E101", "a .comp.yaml file does not parse (malformed `_compose:` or body)"),
    CodeInfo("E102", "a composition body reads an undeclared port, or an output names no "
             "body node"),
    CodeInfo("E103", "a call site or overlay binds an undeclared or unresolvable input, "
             "config param or resource, or `use:` matches no .comp.yaml"),
    CodeInfo("E104", "a call site misses a required input port or config param"),
    CodeInfo("E106", "two nodes have the same name after composition expansion"),
    CodeInfo("E107", "the composition `use:` graph has a cycle or nests deeper than 50"),
    CodeInfo("E108", "a composition body reads a node of its caller (bodies are isolated)"),
    CodeInfo("E111", "a composition body has no nodes"),
    CodeInfo("E113", "an overlay `config:` key names no composition parameter"),
    CodeInfo("E114", "a channel or group `overrides:` op cannot be applied (a missing target "
             "or anchor, a dangling reference, a malformed op)"),
    CodeInfo("E116", "an overlay var's value does not have the pipeline var's type"),
    CodeInfo("E118", "an overlay `config:` key names parameters of several calls"),
    CodeInfo("E377", "a composition call has `outputs:` or `alias:`"),
    CodeInfo("E119", "pipeline.date_locale is not supported"),
    CodeInfo("E124", "pipeline.log_rules is not supported"),
    CodeInfo("E125", "pipeline.include_provenance is not supported"),
    CodeInfo("E126", "a source value does not match its declared column type", EXIT_IO),
    CodeInfo("E150", "analytic window directly on a correlation-key source without buffer mode",
             hint="put the window after a node that is not the source, or give it a group_by "
                  "covering the correlation key"),
    CodeInfo("E150b", "analytic window uses a field its input does not carry"),
    CodeInfo("E150d", "analytic window rooted at a merge node"),
    CodeInfo("E150e", "analytic window reads an array a `match: collect` combine made"),
    CodeInfo("E15Y", "retraction-mode aggregate with strategy: streaming",
             hint="use strategy: auto or hash"),
    CodeInfo("E153", "correlation_key names a field that is not in the source schema",
             hint="list the field in the source's schema: block, or fix the key"),
    CodeInfo("E154", "source watermark.column is not in its schema"),
    CodeInfo("E155", "source watermark.column is not a date or date_time column"),
    CodeInfo("E156", "time_window aggregate over a source that declares no watermark"),
    CodeInfo("E158", "column type 'numeric' is not a concrete type",
             hint="use int, float or decimal"),
    CodeInfo("E159", "schema: generated on a source that is not EDI",
             hint="declare the columns as a list"),
    CodeInfo("E200", "CXL type error"),
    CodeInfo("E201", "source has no schema: block", hint="declare the columns under schema:"),
    CodeInfo("E202", "CXL parse error"),
    CodeInfo("E203", "CXL name does not resolve"),
    CodeInfo("E210", "source declares more than one of path/glob/regex/paths, or an "
             "aggregate body Clinker cannot extract (a scoped emit)"),
    CodeInfo("E211", "source declares none of path/glob/regex/paths"),
    CodeInfo("E212", "a source's exclude glob is invalid"),
    CodeInfo("E213", "a source's regex matcher does not compile"),
    CodeInfo("E214", "a source's modified_after / modified_before is not a duration or an "
             "RFC 3339 timestamp", hint='write "30s", "5m", "2h", "3d" or '
             '"2026-05-01T00:00:00Z"'),
    CodeInfo("E215", "a source's min_size / max_size is not a byte size",
             hint='write a number of bytes or "10KB", "5MB", "1GB" (powers of 1000)'),
    CodeInfo("E216", "a source matches no file", hint="check the path or glob"),
    CodeInfo("E217", "the files of a source have different headers", EXIT_IO,
             hint="a source's files must share one header: split them into sources"),
    CodeInfo("E218", "a source's files: sets both take_first and take_last"),
    CodeInfo("E300", "combine has fewer than 2 or more than 8 inputs",
             hint="list the inputs under `input:` as qualifier: node"),
    CodeInfo("E301", "combine qualifier starts with '$' or contains '.'"),
    CodeInfo("E303", "combine where-clause is not a bool expression"),
    CodeInfo("E304", "combine where-clause names an unknown input or field"),
    CodeInfo("E305", "combine where-clause compares no field of one input with the other",
             hint="add an equality such as `a.id == b.id`"),
    CodeInfo("E306", "combine drive: names a qualifier that is not one of its inputs"),
    CodeInfo("E308", "combine cxl names an unknown input or field"),
    CodeInfo("E309", "combine emits nothing", hint="add `emit name = qualifier.field`"),
    CodeInfo("E311", "combine with match: collect has a cxl body",
             hint="collect emits the driver fields plus an array named after the build input"),
    CodeInfo("E313", "a step of a combine of more than two inputs has no join condition"),
    CodeInfo("E314", "merge inputs have different columns"),
    CodeInfo("E315", "merge inputs disagree on carrying undeclared columns (on_unmapped); "
             "at run time, the pipeline's DLQ rate reached max_rate (exit 3)",
             hint="give the merged sources the same on_unmapped mode"),
    CodeInfo("E316", "a source's DLQ rate reached its per_source max_rate", EXIT_EVAL),
    CodeInfo("E317", "error_handling.dlq.per_source names a node that is not a source"),
    CodeInfo("E318", "a DLQ max_rate outside (0, 1], or two DLQ files that are one"),
    CodeInfo("E319", "combine with on_miss: error found a driver row without a match"),
    CodeInfo("E322", "two outputs write the same file"),
    CodeInfo("E325", "a combine emitted more rows than its max_output_rows cap",
             hint="raise max_output_rows, or narrow the join"),
    CodeInfo("E327", "combine range comparison whose operands are not an orderable pair",
             hint="compare matching int, float, or decimal operands on both sides"),
    CodeInfo("E364", "sink mapping: is not an ordered list of `col` or `out: col` entries"),
    CodeInfo("E365", "sink mapping: names a column the pipeline does not carry there"),
    CodeInfo("E343", "a per-source-file sink path ({source_file}/{source_path}) with a "
             "source's dlq_granularity: document"),
    CodeInfo("E344", "dlq_granularity: document with strategy: fail_fast"),
    CodeInfo("E358", "malformed split_values or split_to_rows declaration on a source",
             hint="name a `multiple: true` column's input field once, with a non-empty "
                  "delimiter"),
    CodeInfo("E-SEC-001", "a path of the pipeline climbs out with `..` (or holds an encoded "
             "one, or a null byte), is absolute without --allow-absolute-paths, or leads out "
             "of the folder through a symlink; or a sink with `if_exists: error` finds its file "
             "already there", hint="name the file by a path below the "
             "pipeline's folder, or allow absolute paths: --allow-absolute-paths or "
             "CLINKER_ALLOW_ABSOLUTE_PATHS"),
    CodeInfo("E360", "a source declares the retired array_paths: key",
             hint="use split_to_rows, split_values or multiple: true instead"),
    CodeInfo("E363", "a JSON source's record_path is not a dot path",
             hint="write it as `data.rows`: no `$.`, no leading `/`, no empty segment"),
    CodeInfo("E361", "a multiple: true column on a source that cannot produce one",
             hint="add a split_values entry for it, or drop `multiple: true`"),
    CodeInfo("E362", "malformed join_values declaration on an output",
             hint="declare join_values on a CSV output only, each field once"),
    CodeInfo("E366", "a source file is not in its declared sort_order (on_unsorted: error)"),
    CodeInfo("E368", "type_error_threshold is not in [0, 1]; at run time, the share of "
             "source-type rejections went over it (exit 3)"),
    CodeInfo("E370", "dlq_granularity: document with a correlation_key"),
    CodeInfo("E373", "a transform log condition is more than one predicate"),
    CodeInfo("E374", "a transform log directive selects a field its input does not carry"),
    CodeInfo("E375", "one log event name with two different field sets"),
    CodeInfo("E376", "terminal node spelled 'type: output'"),
    CodeInfo("W002", "node names differ only in case"),
    # clinker-sql's own codes
    CodeInfo("CS001", "feature not supported by clinker-sql yet",
             hint="docs/status.md lists what is refused and why; the feature is refused "
                  "rather than translated with different semantics"),
    CodeInfo("CS002", "CXL evaluation failed under strategy: fail_fast", EXIT_EVAL),
    CodeInfo("CS010", "no Java runtime found for the embedded Spark",
             hint="install a JDK 17 or 21 (Debian: apt-get install openjdk-17-jre-headless) "
                  "or set JAVA_HOME, or pip install 'clinker-sql[jdk]'"),
    CodeInfo("CS011", "the embedded Spark (pyspark) is not installed",
             hint="pip install 'clinker-sql[spark]'; compile, validate, explain, lineage and "
                  "docs do not need it"),
    CodeInfo("CS020", "Spark failed while running a statement", EXIT_IO),
    CodeInfo("CS050", "a combine's residual condition is not applied (warning), as in "
             "Clinker's range join with one or two range conjuncts"),
    CodeInfo("CS051", "a source matched no file under files.on_no_match: warn (warning): "
             "it has no rows"),
    CodeInfo("CS052", "a seeded interleave merge's rows come in another order than "
             "Clinker's (warning); the rows are the same"),
    CodeInfo("CS060", "the pipeline YAML nests deeper than 256 levels",
             hint="flatten the structure"),
    CodeInfo("CS061", "the pipeline YAML holds more than 100000 nodes once its aliases are "
             "expanded (an alias bomb)", hint="write the values out instead of repeating "
             "aliases of aliases"),
    CodeInfo("CS062", "a CXL expression nests too deep: over 128 levels (groups, operands, "
             "a chain of operators or method calls), or its SQL over 160 with the `let`s it "
             "reads written out", hint="compute part of it in an earlier transform"),
    CodeInfo("CS063", "a name (of the pipeline, a node, a column, a branch) is longer than "
             "255 bytes", hint="choose a shorter name"),
    CodeInfo("CS064", "a path is longer than 4096 bytes, or one of its folder or file names "
             "longer than 255 bytes", hint="choose a shorter path"),
    CodeInfo("CS065", "a CXL expression's SQL would hold more than 20000 nodes (an operator "
             "that states its operand twice, nested, doubles it at every level)",
             hint="compute part of it in an earlier transform, or nest it less deep"),
    CodeInfo("CS021", "the retraction protocol did not converge", EXIT_EVAL),
    CodeInfo("CS030", "the Spark server (Thrift or Connect) cannot be reached", EXIT_IO,
             hint="check host and port; `clinker-sql thrift-server status` or "
                  "`clinker-sql connect-server status` for a local one"),
    CodeInfo("CS031", "the Spark server (Thrift or Connect) refused the login", EXIT_IO,
             hint="check --user, --auth and the variable named by --password-env (Thrift), "
                  "or the token (Spark Connect)"),
    CodeInfo("CS032", "a statement failed on the Spark server (Thrift or Connect)", EXIT_IO),
    CodeInfo("CS033", "a statement ran longer than the statement timeout", EXIT_IO,
             hint="raise --statement-timeout (or statement_timeout: in the profile)"),
    CodeInfo("CS034", "the Spark server (Thrift or Connect) cannot share files with this "
             "machine",
             hint="outputs are assembled by clinker-sql from the server's staging folders: "
                  "run the server on this machine, or set shared_filesystem: true when it "
                  "sees the same paths (e.g. a shared mount)"),
    CodeInfo("CS035", "the run target or its profile is invalid",
             hint="see docs/cluster.md (running on a cluster, profiles)"),
    CodeInfo("CS036", "the local Thrift or Spark Connect server could not be started or "
             "stopped", EXIT_IO),
    CodeInfo("CS037", "a table sink needs a catalog that outlives the run", EXIT_IO,
             hint="run it on a Spark Thrift or Connect server: --target thrift://host:port "
                  "or sc://host:port"),
    CodeInfo("CS040", "the committed compiled SQL is stale (compile --check)",
             hint="run `clinker-sql compile` and commit the files it writes"),
    CodeInfo("CS041", "a compiled statement does not check with sqlglot (a bug)",
             hint="this is a bug in clinker-sql; report it with the pipeline"),
    CodeInfo("CS042", "lineage: no such node or column",
             hint="name a column as node.column, e.g. a sink and one of its output columns"),
    CodeInfo("CS043", "explain: no such diagnostic code",
             hint="`clinker-sql explain --list` lists every code"),
    CodeInfo("CS999", "internal error in clinker-sql (a bug)"),
    CodeInfo("CS070", "a `${VAR}` reference names an unset environment variable and has no "
             "default", hint="set the variable, or write `${VAR:-default}`"),
    CodeInfo("CS071", "a `${...}` reference names a variable that is not upper case",
             hint="write `$${...}` for the literal text"),
    CodeInfo("CS072", "--base-dir is not a folder"),
    CodeInfo("CS073", "clinker.toml is malformed or has an unknown table or field"),
    CodeInfo("CS074", "--group names no group, or a group that does not target the pipeline"),
    CodeInfo("CS075", "--channel names no channel folder, or the channel has several "
             "overlays for the pipeline"),
    CodeInfo("CS076", "a group's `match:` selector does not parse, reads an undeclared "
             "channel label, or is not boolean"),
    CodeInfo("CS080", "a workspace folder holds no pipeline, names one that is not a file, "
             "or holds two pipelines of one name",
             hint="a pipeline is a YAML file with `pipeline:` and `nodes:` at its top level"),
    CodeInfo("CS081", "--select matches no pipeline of the workspace, or is given with a "
             "pipeline file instead of a workspace folder"),
    CodeInfo("CS082", "the workspace's pipelines read each other's outputs in a cycle"),
    CodeInfo("CS083", "init would write over an existing file",
             hint="give a new or empty folder"),
    CodeInfo("CS101", "a CSV record is malformed (wrong number of fields or bad quoting)",
             EXIT_IO, hint="every record must have as many fields as the header"),
    CodeInfo("CS102", "a source file lacks a declared column (its header was not read "
             "beforehand)", EXIT_IO),
    CodeInfo("CS105", "a source's file has a column its schema does not declare, under "
             "on_unmapped: reject", EXIT_IO, hint="declare the column, or set on_unmapped: drop"),
    CodeInfo("CS103", "an output path cannot be written", EXIT_IO,
             hint="create the output folder first and check its permissions"),
    CodeInfo("CS104", "the pipeline file cannot be read"),
    CodeInfo("CS108", "a source or schema path names a FIFO, a socket or a device, not a "
             "regular file", hint="name a file of records"),
    CodeInfo("CS109", "a source file holds bytes that are not UTF-8, its encoding", EXIT_IO,
             hint="declare the source's character set (e.g. `encoding: iso-8859-1`) if the "
             "input uses a non-UTF-8 repertoire"),
    CodeInfo("CS110", "a CSV source file with has_header: true has no header row (it is "
             "empty)", EXIT_IO, hint="remove the empty file, or write its header line"),
    CodeInfo("CS111", "a fixed-width line ends inside a field's byte range, or a field's "
             "text does not parse as its column's type", EXIT_IO,
             hint="fix the file's line; a field that may hold other text can be declared "
             "a string and converted in CXL"),
    CodeInfo("CS112", "a split sink's key group outgrows its file limits under "
             "oversize_group: error", EXIT_IO,
             hint="raise max_records / max_bytes, or set oversize_group: warn"),
    CodeInfo("CS113", "an XML record repeats a field whose column is not declared "
             "`multiple: true`", EXIT_IO,
             hint="declare the column `multiple: true` to keep every occurrence as an array"),
    CodeInfo("CS114", "an XML source file holds elements named like its record element "
             "outside record_path (or a record inside another)", EXIT_IO,
             hint="rename those elements, or read the file with another record_path"),
    CodeInfo("CS115", "a JSON source file has no array at its record_path (a key is "
             "missing, a value on the way is not an object, the value there is not an "
             "array, the file is empty), or `format: object` is declared without "
             "record_path", EXIT_IO,
             hint="name the key path of the records' array, e.g. `record_path: data.rows`"),
    CodeInfo("CS116", "a fixed-width sink's record does not fit its layout: a value wider "
             "than its field under truncation: error (a numeric column's default), or a "
             "column the layout does not declare", EXIT_IO,
             hint="widen the field, set `truncation: warn` or `silent` to cut the value, "
             "or declare the column (or drop it with exclude: / include_unmapped: false)"),
    CodeInfo("CS107", "a sink's path template is invalid, or renders two source files to "
             "one path", hint="tokens: {source_file}, {source_path}, {source_name[:NODE]}, "
             "{channel}, {n}; `{{` and `}}` for literal braces"),
    CodeInfo("CS106", "a CSV sink's multi-value join found a value holding its delimiter "
             "(on_conflict: error) under strategy: fail_fast", EXIT_IO,
             hint="use on_conflict: escape or encode_json, or strategy: continue with a dlq"),
    CodeInfo("CS130", "a CXL module (`use a.b`), or the rules root it is found under, "
             "cannot be found or read",
             hint="create <rules root>/a/b.cxl; the root is --rules-path, else "
                  "pipeline.rules_path, else clinker.toml's [catalog] rules_root, else rules/"),
    CodeInfo("CS131", "a CXL module file is not a valid module (a statement other than use, "
             "let and fn, a duplicate declaration or alias, or a name it cannot read)",
             hint="a module holds `use` imports, `let` constants and one-expression `fn`s "
                  "that read only their parameters, constants and direct imports"),
    CodeInfo("CS132", "CXL modules import each other in a cycle, or a module constant or "
             "function depends on itself (recursion)",
             hint="remove one of the imports or references in the chain shown"),
    CodeInfo("CS133", "the CXL modules a pipeline imports exceed Clinker's bounds (64 "
             "modules, import depth 32, 1 MiB a file, 16 MiB in all)"),
    CodeInfo("CS140", "a reshape rule's expression (when, mutate.set, overrides) failed on "
             "a row: the run stops, whatever the strategy (Clinker's internal error in "
             "reshape)", EXIT_EVAL,
             hint="guard the expression (a checked conversion, a test before dividing)"),
    CodeInfo("CS134", "a --var override names no var in pipeline.vars, or its value does "
             "not read as the var's declared type",
             hint="write --var name=value for a declared var, e.g. --var cutoff=2024-01-31"),
)


@dataclass(frozen=True)
class Location:
    file: str
    line: int  # 1-based
    column: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    location: Location | None = None
    hint: str = ""
    severity: str = "error"
    length: int = 1
    exit: int | None = None  # when one code has two exits (E315: a merge, or a DLQ rate)

    @property
    def exit_code(self) -> int:
        if self.exit is not None:
            return self.exit
        info = CODES.get(self.code)
        return info.exit_code if info else EXIT_CONFIG


    def render(self, source_text: str | None = None) -> str:
        head = f"{self.severity}[{self.code}]: {self.message}"
        lines = [head]
        loc = self.location
        if loc is not None:
            lines.append(f"  --> {loc}")
            text = source_text
            if text is None:
                try:
                    text = Path(loc.file).read_text(encoding="utf-8")
                except OSError:
                    text = None
            if text is not None:
                src_lines = text.splitlines()
                if 1 <= loc.line <= len(src_lines):
                    gutter = len(str(loc.line))
                    lines.append(f"{' ' * gutter} |")
                    lines.append(f"{loc.line} | {src_lines[loc.line - 1]}")
                    caret = " " * (loc.column - 1) + "^" * max(1, self.length)
                    lines.append(f"{' ' * gutter} | {caret}")
        hint = self.hint or (CODES[self.code].hint if self.code in CODES else "")
        if hint:
            lines.append(f"  = hint: {hint}")
        return "\n".join(lines)


@dataclass
class DiagnosticError(Exception):
    """Raised with one or more diagnostics; the CLI prints them and exits."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.diagnostics[0].message if self.diagnostics else "")

    @property
    def exit_code(self) -> int:
        return max(d.exit_code for d in self.diagnostics) if self.diagnostics else EXIT_CONFIG


def fail(code: str, message: str, location: Location | None = None, hint: str = "",
         length: int = 1, exit: int | None = None) -> DiagnosticError:
    """Build (not raise) a single-diagnostic error: `raise fail(...)`. `exit`: when the
    code's exit is not CODES' (E315 is a merge's config error, or a run's DLQ rate)."""
    return DiagnosticError([Diagnostic(code, message, location, hint, length=length,
                                       exit=exit)])
