-- CXL to_float() / try_float() on a String: Rust's f64 grammar (no surrounding blanks,
-- no hex, no trailing `d`/`f`; inf, infinity and nan in any case); NULL when it does not
-- parse.
CREATE TEMPORARY FUNCTION cxl_string_to_float(s STRING) RETURNS DOUBLE RETURN
CASE
  WHEN COALESCE(s RLIKE '^[+-]?(?i:nan)\\z', FALSE) THEN CAST('NaN' AS DOUBLE)
  WHEN COALESCE(s RLIKE '^[+-]?([0-9]+[.]?[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))\\z', FALSE)
  THEN TRY_CAST(s AS DOUBLE)
END;
