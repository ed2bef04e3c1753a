-- the SQL functions the statements call, defined before them

-- The DLQ message of a failed CXL to_*() conversion: the value as text and the target type.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_conversion_failed(
    text STRING,
    target STRING
)
RETURNS STRING
RETURN CONCAT('conversion failed: cannot convert \'', text, '\' to ', target);

-- CXL to_int() / try_int() on a String: Rust's strict i64 parse (an optional sign and digits, nothing else, no blanks); NULL when it does not parse or is out of range.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_string_to_int(
    s STRING
)
RETURNS BIGINT
RETURN CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\z', FALSE) THEN TRY_CAST(s AS BIGINT) END;
