"""The function library (macros/functions/, cxl/functions.py): every function inlines into
Spark's plans, each computes what the lowering wrote out before it, and a compiled pipeline
defines exactly the functions it calls."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from clinker_sql.cxl import functions as F

ROOT = Path(__file__).resolve().parents[2]

# a value per parameter type, read from a range so that Spark cannot fold the query
_ARGS = {"STRING": "CAST(id AS STRING)", "DOUBLE": "CAST(id AS DOUBLE) / 4", "BIGINT": "id",
         "INT": "CAST(id AS INT)", "BOOLEAN": "id % 2 = 0"}

# how Spark's plans name what a body does
_MARKERS = ("RLIKE", "TRY_CAST", "ROUND(", "POWER(", "ISNAN(", "LOWER(", "CONCAT(",
            "REGEXP_REPLACE(", "ABS(", "CEIL(", "FLOOR(", "REGEXP_EXTRACT(", "FROM_JSON(",
            "VARIANT_GET(", "OCTET_LENGTH(")


@pytest.fixture(scope="module")
def library(spark):
    for _, create in F.definitions(F.library()):
        spark.sql(create)
    return F.library()


def _plans(spark, sql: str) -> tuple[str, str]:
    qe = spark.sql(sql)._jdf.queryExecution()
    return qe.optimizedPlan().toString(), qe.executedPlan().toString()


@pytest.mark.parametrize("name", sorted(F.library()))
def test_every_function_inlines_into_whole_stage_code(spark, library, name):
    fn = library[name]
    args = ", ".join(_ARGS[t] for t in fn.param_types)
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW fn_probe AS SELECT {name}({args}) AS v "
              "FROM RANGE(10)")
    optimized, physical = _plans(spark, "SELECT v FROM fn_probe")
    body = fn.body.sql("spark").upper()
    markers = {m.lower() for m in _MARKERS if m in body}
    assert markers, f"{name}: no known operator to look for in its body"
    for plan in (optimized, physical):
        assert name not in plan.lower(), plan  # no SQL function call is left
        for m in markers:
            assert m in plan.lower(), (m, plan)
    # the projection computing the body runs inside whole-stage code generation, unless the
    # body holds a lambda: Spark interprets a higher-order function (TRANSFORM, ...) anywhere
    project = next(line for line in physical.splitlines() if "Project" in line)
    if fn.body.find(exp.Lambda) is None:
        assert project.lstrip("+- :").startswith("*("), physical
    spark.sql(f"SELECT * FROM fn_probe").collect()  # and it runs


# ---- each function against the lowering it replaced -------------------------------------------
# The SQL the lowering wrote out before the library (s: a String, x: a Float, n: an Int).
OLD = {
    "cxl_string_to_int": r"CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\z', FALSE) "
                         r"THEN TRY_CAST(s AS BIGINT) END",
    "cxl_string_to_float": r"CASE WHEN COALESCE(s RLIKE '^[+-]?(?i:nan)\\z', FALSE) THEN "
                           r"CAST('NaN' AS DOUBLE) WHEN COALESCE(s RLIKE '^[+-]?([0-9]+[.]?"
                           r"[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|(?i:inf|"
                           r"infinity|nan))\\z', FALSE) THEN TRY_CAST(s AS DOUBLE) END",
    "cxl_string_to_bool": "CASE WHEN LOWER(s) IN ('true', '1', 'yes') THEN TRUE "
                          "WHEN LOWER(s) IN ('false', '0', 'no') THEN FALSE END",
    "cxl_string_to_date": r"CASE WHEN COALESCE(s RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', "
                          r"FALSE) THEN TRY_CAST(s AS DATE) END",
    "cxl_string_to_datetime": r"CASE WHEN COALESCE(s RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
                              r"[Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}([.][0-9]+)?\\z', FALSE) "
                              r"THEN TRY_CAST(REGEXP_REPLACE(s, '^([0-9]+-[0-9]+-[0-9]+)t', "
                              r"'$1T') AS TIMESTAMP_NTZ) END",
    "cxl_float_to_int": "CASE WHEN ISNAN(x) THEN CAST(0 AS BIGINT) WHEN x >= "
                        "CAST('9.223372036854776e+18' AS DOUBLE) THEN CAST(9223372036854775807 "
                        "AS BIGINT) WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE) THEN "
                        "CAST('-9223372036854775808' AS BIGINT) ELSE CAST(x AS BIGINT) END",
    "cxl_float_ceil": "CASE WHEN ISNAN(x) THEN CAST(0 AS BIGINT) WHEN x >= "
                      "CAST('9.223372036854776e+18' AS DOUBLE) THEN CAST(9223372036854775807 "
                      "AS BIGINT) WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE) THEN "
                      "CAST('-9223372036854775808' AS BIGINT) ELSE CAST(CEIL(x) AS BIGINT) END",
    "cxl_float_floor": "CASE WHEN ISNAN(x) THEN CAST(0 AS BIGINT) WHEN x >= "
                       "CAST('9.223372036854776e+18' AS DOUBLE) THEN CAST(9223372036854775807 "
                       "AS BIGINT) WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE) THEN "
                       "CAST('-9223372036854775808' AS BIGINT) ELSE CAST(FLOOR(x) AS BIGINT) END",
    "cxl_float_round": "CASE WHEN (x) IS NULL THEN NULL WHEN POWER(CAST('10.0' AS DOUBLE), n) "
                       "= CAST('0.0' AS DOUBLE) THEN CAST('NaN' AS DOUBLE) ELSE ROUND((x) * "
                       "POWER(CAST('10.0' AS DOUBLE), n), 0) / POWER(CAST('10.0' AS DOUBLE), n) "
                       "END",
    "cxl_float_text": r"CASE WHEN x IS NULL THEN CAST(NULL AS STRING) WHEN ISNAN(x) THEN 'NaN' "
                      r"WHEN x = CAST('Infinity' AS DOUBLE) THEN 'inf' WHEN x = "
                      r"CAST('-Infinity' AS DOUBLE) THEN '-inf' WHEN INSTR(CAST(x AS STRING), "
                      r"'E') = 0 THEN CASE WHEN CAST(x AS STRING) LIKE '%.0' THEN "
                      r"SUBSTRING(CAST(x AS STRING), 1, LENGTH(CAST(x AS STRING)) - 2) ELSE "
                      r"CAST(x AS STRING) END ELSE COALESCE(REGEXP_REPLACE(REGEXP_REPLACE(CASE "
                      r"WHEN ABS(x) >= CAST('1e+18' AS DOUBLE) THEN CAST(TRY_CAST(CAST(x AS "
                      r"STRING) AS DECIMAL(38, 0)) AS STRING) WHEN ABS(x) >= CAST('0.01' AS "
                      r"DOUBLE) THEN CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 18)) AS "
                      r"STRING) ELSE CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 37)) AS "
                      r"STRING) END, '(\\.[0-9]*?)0+$', '$1'), '\\.$', ''), CAST(x AS STRING)) "
                      r"END",
    "cxl_conversion_failed": r"CONCAT('conversion failed: cannot convert \'', s, "
                             r"'\' to Float')",
}

STRINGS = ["5", "+5", "-5", " 5", "5 ", "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "-9223372036854775809", "NaN", "-nan", "inf", "-Infinity",
           "infinity", "1e3", "1E-3", ".5", "5.", "1.5e", "0x10", "5d", "", None, "true",
           "YES", "No", "0", "1", "2024-01-05", "2024-1-5", "2024-13-01", "2024-01-05T10:00:00",
           "2024-01-05t10:00:00.25", "2024-01-05 10:00:00", "2024-01-05T25:00:00", "١٢"]
FLOATS = ["0.0", "-0.0", "0.5", "-0.5", "1.5", "2.5", "-2.5", "123.456", "1e-5", "1e7",
          "12345678.9", "1e20", "-1e20", "9.3e18", "-9.3e18", "9.2e18", "1.7976931348623157e308",
          "NaN", "Infinity", "-Infinity", None]
PLACES = [0, 1, 2, -1, -2, 400, -400]


def _rows(spark, values: list, spark_type: str) -> None:
    cells = ", ".join("NULL" if v is None else "'" + v.replace("'", "\\'") + "'"
                      for v in values)
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW fn_inputs AS SELECT "
              f"CAST(ELEMENT_AT(ARRAY({cells}), CAST(id AS INT) + 1) AS {spark_type}) AS v "
              f"FROM RANGE({len(values)})")


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", sorted(OLD))
def test_each_function_computes_what_the_lowering_wrote_out(spark, library, name):
    fn = library[name]
    if fn.param_types[0] == "STRING":
        _rows(spark, STRINGS, "STRING")
        param = "s"
    else:
        _rows(spark, FLOATS, "DOUBLE")
        param = "x"
    if name == "cxl_float_round":
        cases = [(f"{name}(v, {n})", OLD[name].replace("n)", f"CAST({n} AS BIGINT))"))
                 for n in PLACES]
    elif name == "cxl_conversion_failed":
        cases = [(f"{name}(v, 'Float')", OLD[name])]
    else:
        cases = [(f"{name}(v)", OLD[name])]
    for call, old in cases:
        old_sql = sqlglot.parse_one(old, read="spark").transform(
            lambda n: exp.column("v") if isinstance(n, exp.Column) and n.name == param else n)
        query = f"SELECT v, {call} AS new, {old_sql.sql('spark')} AS old FROM fn_inputs"
        rows = spark.sql(query).collect()
        assert len(rows) == len(STRINGS if param == "s" else FLOATS)
        bad = [(r["v"], r["new"], r["old"]) for r in rows if not _same(r["new"], r["old"])]
        assert not bad, (call, bad)


# ---- the loader ------------------------------------------------------------------------------
def _load(tmp_path: Path, stem: str, text: str):
    path = tmp_path / f"{stem}.sql"
    path.write_text(text)
    return F._load(path)


def test_the_loader_checks_name_parameters_and_return_type(tmp_path):
    fn = _load(tmp_path, "twice", "-- doubles\nCREATE TEMPORARY FUNCTION cxl_twice(x BIGINT) "
               "RETURNS BIGINT RETURN x * 2;")
    assert (fn.name, fn.params, fn.param_types, fn.returns) == \
        ("cxl_twice", ("x",), ("BIGINT",), "BIGINT")
    for stem, text in (
        ("twice", "CREATE TEMPORARY FUNCTION cxl_twice(x BIGINT) RETURNS BIGINT RETURN x;"),
        ("twice", "-- c\nCREATE TEMPORARY FUNCTION cxl_other(x BIGINT) RETURNS BIGINT RETURN x;"),
        ("twice", "-- c\nCREATE TEMPORARY FUNCTION cxl_twice(x DECIMAL(10, 2)) RETURNS "
                  "BIGINT RETURN 1;"),  # a DECIMAL parameter would cast its argument
        ("twice", "-- c\nCREATE TEMPORARY FUNCTION cxl_twice(x BIGINT) RETURNS BIGINT "
                  "RETURN y;"),  # reads no parameter of its own
        ("twice", "-- c\nCREATE FUNCTION cxl_twice(x BIGINT) RETURNS BIGINT RETURN x;"),
    ):
        with pytest.raises(F.LibraryError):
            _load(tmp_path, stem, text)


def test_a_call_inside_a_lambda_becomes_the_body_and_reads_its_argument_once(spark, library):
    sql = ("SELECT TRANSFORM(ARRAY('1', 'x', NULL, ' 2'), e -> "
           "NOT CONCAT(e, '') IS NULL AND cxl_string_to_int(CONCAT(e, '')) IS NULL) AS bad, "
           "TRANSFORM(ARRAY(CAST(0.25 AS DOUBLE), 1.5D), e -> cxl_float_text(cxl_float_round(e * 2, 0))) AS t")
    tree = F.inline_in_lambdas(sqlglot.parse_one(sql, read="spark"))
    text = tree.sql("spark")
    assert not F.used_in_text(text) and text.count("RLIKE") == 1, text
    row = spark.sql(text).collect()[0]
    assert row["bad"] == [False, True, False, True] and row["t"] == ["1", "3"]


# ---- what a compiled pipeline defines --------------------------------------------------------
@pytest.mark.parametrize("example", ["employee_tiers", "order_routing", "retract_orders",
                                     "store_exports"])
def test_a_compiled_pipeline_defines_only_the_functions_it_calls(example):
    from clinker_sql.project import Project

    pipeline = ROOT / "examples" / example / "pipeline.yaml"
    compiled = Project(pipeline).compile(base=pipeline.parent)
    kinds = [s.kind for s in compiled.statements]
    defined = [s.name for s in compiled.statements if s.kind == "function"]
    # right after the session settings
    first = kinds.index("function") if defined else None
    if defined:
        assert set(kinds[:first]) == {"setup"} and \
            kinds[first:first + len(defined)] == ["function"] * len(defined)
    called: set[str] = set()
    for s in compiled.statements:
        if s.kind != "function":
            called |= F.used_in_text(s.sql)
    wanted = [fn.name for fn, _ in F.definitions(called)]
    assert defined == wanted
    # each function is defined after those it calls
    for i, name in enumerate(defined):
        assert set(F.library()[name].calls) <= set(defined[:i])
    for s in compiled.statements:
        if s.kind == "function":
            assert sqlglot.parse_one(s.sql, read="spark").this.this.name == s.name


def test_validate_knows_the_functions_and_refuses_a_call_before_its_definition():
    from clinker_sql.diagnostics import DiagnosticError
    from clinker_sql.inspect.sqlcheck import check_statements
    from clinker_sql.project import Project

    pipeline = ROOT / "examples" / "order_routing" / "pipeline.yaml"
    project = Project(pipeline)
    compiled = project.compile(base=pipeline.parent)
    check_statements(project.load(), compiled)
    compiled.statements = [s for s in compiled.statements if s.name != "cxl_float_round"]
    with pytest.raises(DiagnosticError, match="calls cxl_float_round before any statement"):
        check_statements(project.load(), compiled)


def _fixed_width_cell(text, width: int, pad: str, right: bool) -> str:
    """Clinker's FixedWidthWriter::pad_and_justify, byte for byte."""
    data = (text or "").encode()
    cut = min(len(data), width)
    while cut < len(data) and data[cut] & 0xC0 == 0x80:  # not a character boundary
        cut -= 1
    kept, padding = data[:cut].decode(), pad * (width - cut)
    return padding + kept if right else kept + padding


def test_the_fixed_width_cell_pads_and_cuts_as_clinkers_writer(spark, library):
    texts = ["Alice", "42", "LongName", "café", "é", "a€b", "€", "😀x", "x😀", "", None,
             "line\nbreak", "ab"]
    cases = [(t, w, pad, right) for t in texts for w in (1, 2, 3, 4, 5, 10)
             for pad, right in ((" ", False), ("0", True))]
    cells = ", ".join(
        f"cxl_fixed_width_cell({'NULL' if t is None else repr(t)}, {w}, '{pad}', {right})"
        for t, w, pad, right in cases)
    row = spark.sql(f"SELECT ARRAY({cells}) AS v").collect()[0]["v"]
    want = [_fixed_width_cell(*c) for c in cases]
    assert [(c, g) for c, g, w in zip(cases, row, want) if g != w] == []
    assert all(len(v.encode()) == c[1] for v, c in zip(row, cases))
