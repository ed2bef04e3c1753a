-- CXL to_int() / try_int() on a String: Rust's strict i64 parse (an optional sign and
-- digits, nothing else, no blanks); NULL when it does not parse or is out of range.
CREATE TEMPORARY FUNCTION cxl_string_to_int(s STRING) RETURNS BIGINT RETURN
CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\z', FALSE) THEN TRY_CAST(s AS BIGINT) END;
