-- CXL round(n) / round_to(n) on a Float: (x * 10^n).round() / 10^n on the binary
-- product, half away from zero; NaN when 10^n is 0.
CREATE TEMPORARY FUNCTION cxl_float_round(x DOUBLE, n BIGINT) RETURNS DOUBLE RETURN
CASE
  WHEN x IS NULL THEN NULL
  WHEN POWER(CAST('10.0' AS DOUBLE), n) = CAST('0.0' AS DOUBLE) THEN CAST('NaN' AS DOUBLE)
  ELSE ROUND(x * POWER(CAST('10.0' AS DOUBLE), n), 0) / POWER(CAST('10.0' AS DOUBLE), n)
END;
