"""CXL types and their Spark SQL counterparts (spec §4.1)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp


@dataclass(frozen=True)
class CxlType:
    kind: str  # int float decimal string bool date datetime array map null any json
    elem: CxlType | None = None  # arrays and maps
    precision: int = 38
    scale: int = 0
    # a decimal declared without a scale: Clinker keeps each value's own scale; here it is
    # held at FREE_SCALE and written without trailing zeros (cxl/text.py)
    free: bool = False

    def __str__(self) -> str:
        if self.kind in ("array", "map") and self.elem is not None:
            return f"{self.kind}<{self.elem}>"
        return self.kind

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "float", "decimal")


INT = CxlType("int")
FLOAT = CxlType("float")
STRING = CxlType("string")
BOOL = CxlType("bool")
DATE = CxlType("date")
DATETIME = CxlType("datetime")
NULL = CxlType("null")
ANY = CxlType("any")
# a JSON value of dynamic shape, held as its JSON text (cxl/json_values.py)
JSON = CxlType("json")


def array_of(elem: CxlType) -> CxlType:
    return CxlType("array", elem)


# the scale a `decimal` column declared without one is held at (and its integer digits
# are the other 20 of Spark's 38)
FREE_SCALE = 18


def decimal(precision: int = 38, scale: int = 0, free: bool = False) -> CxlType:
    return CxlType("decimal", precision=precision, scale=scale, free=free)


_COLUMN_TO_CXL = {"string": STRING, "int": INT, "float": FLOAT, "bool": BOOL, "date": DATE,
                  "date_time": DATETIME, "any": STRING, "null": NULL}


def from_column(ctype: str, precision: int | None = None, scale: int | None = None) -> CxlType:
    if ctype == "decimal":
        if scale is None:
            return decimal(38, FREE_SCALE, free=True)
        return decimal(precision or 38, scale)
    if ctype == "array":
        return array_of(STRING)
    if ctype == "map":
        return CxlType("map", STRING)
    return _COLUMN_TO_CXL[ctype]


def unify(a: CxlType, b: CxlType) -> CxlType | None:
    """Spec §4.1 unification; None when the types do not unify."""
    if a == b:
        return a
    if a.kind in ("any", "null"):
        return b
    if b.kind in ("any", "null"):
        return a
    if {a.kind, b.kind} == {"int", "float"}:
        return FLOAT
    if {a.kind, b.kind} == {"int", "decimal"}:
        return a if a.kind == "decimal" else b
    if a.kind == b.kind == "decimal":
        return decimal(38, max(a.scale, b.scale), a.free or b.free)
    if a.kind == b.kind and a.kind in ("array", "map"):
        elem = unify(a.elem or ANY, b.elem or ANY)
        return CxlType(a.kind, elem) if elem else None
    return None


def spark_type(t: CxlType) -> exp.DataType:
    return exp.DataType.build(spark_type_sql(t), dialect="spark")


def spark_type_sql(t: CxlType) -> str:
    if t.kind == "int":
        return "BIGINT"
    if t.kind == "float":
        return "DOUBLE"
    if t.kind == "decimal":
        return f"DECIMAL({t.precision}, {t.scale})"
    if t.kind == "bool":
        return "BOOLEAN"
    if t.kind == "date":
        return "DATE"
    if t.kind == "datetime":
        return "TIMESTAMP_NTZ"
    if t.kind == "array":
        return f"ARRAY<{spark_type_sql(t.elem or STRING)}>"
    if t.kind == "map":
        return f"MAP<STRING, {spark_type_sql(t.elem or STRING)}>"
    return "STRING"
