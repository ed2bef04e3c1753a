-- CXL to_datetime() / try_datetime() on a String with no format: a date, `T`, `t` or a
-- blank, then the time with optional fractional seconds; NULL when it does not parse.
CREATE TEMPORARY FUNCTION cxl_string_to_datetime(s STRING) RETURNS TIMESTAMP_NTZ RETURN
CASE
  WHEN COALESCE(s RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}([.][0-9]+)?\\z', FALSE)
  THEN TRY_CAST(REGEXP_REPLACE(s, '^([0-9]+-[0-9]+-[0-9]+)t', '$1T') AS TIMESTAMP_NTZ)
END;
