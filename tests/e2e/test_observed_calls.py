"""A run counts rows meeting compiled conditions while a statement reads them
(`Dataset.observe`); Spark refuses a SQL function there (UNSUPPORTED_SQL_UDF_USAGE), so
the counted conditions hold the library's bodies, not its calls."""

from __future__ import annotations

from clinker_sql.cxl.functions import definitions, without_calls

CONDITION = "count_if(NOT `v` IS NULL AND CXL_STRING_TO_INT(`v`) IS NULL)"


def test_a_condition_with_library_calls_is_counted_while_a_statement_reads_the_view(executor):
    local = executor
    for _, sql in definitions({"cxl_string_to_int"}):
        local.execute(sql)
    local.execute("CREATE OR REPLACE TEMPORARY VIEW `observed_calls` AS "
                  "SELECT * FROM VALUES ('1'), ('x'), (NULL), ('+7'), ('7.5') AS t(`v`)")
    counts = local.observe("observed_calls", {"bad": CONDITION})
    assert local.first("SELECT COUNT(*) AS n FROM `observed_calls`")["n"] == 5
    assert counts() == {"bad": 2}  # 'x' and '7.5' do not convert; NULL is no failure


def test_without_calls_writes_each_call_as_its_body():
    text = without_calls(CONDITION)
    assert "CXL_" not in text.upper().replace("_CXL_", "")
    assert "RLIKE" in text.upper()
    assert without_calls("count(1)") == "count(1)"
