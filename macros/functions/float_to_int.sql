-- CXL to_int() / try_int() on a Float, and a Float used as an Int argument: Rust's
-- `f as i64`, which truncates toward zero, saturates at the Int range and gives 0 for NaN.
CREATE TEMPORARY FUNCTION cxl_float_to_int(x DOUBLE) RETURNS BIGINT RETURN
CASE
  WHEN ISNAN(x) THEN CAST(0 AS BIGINT)
  WHEN x >= CAST('9.223372036854776e+18' AS DOUBLE) THEN CAST(9223372036854775807 AS BIGINT)
  WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE) THEN CAST('-9223372036854775808' AS BIGINT)
  ELSE CAST(x AS BIGINT)
END;
