-- the SQL functions the statements call, defined before them

-- The DLQ message of a failed CXL to_*() conversion: the value as text and the target type.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_conversion_failed(
    text STRING,
    target STRING
)
RETURNS STRING
RETURN CONCAT('conversion failed: cannot convert \'', text, '\' to ', target);

-- CXL round(n) / round_to(n) on a Float: (x * 10^n).round() / 10^n on the binary product, half away from zero; NaN when 10^n is 0.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_round(
    x DOUBLE,
    n BIGINT
)
RETURNS DOUBLE
RETURN CASE
  WHEN x IS NULL
  THEN NULL
  WHEN POWER(CAST('10.0' AS DOUBLE), n) = CAST('0.0' AS DOUBLE)
  THEN CAST('NaN' AS DOUBLE)
  ELSE ROUND(x * POWER(CAST('10.0' AS DOUBLE), n), 0) / POWER(CAST('10.0' AS DOUBLE), n)
END;

-- CXL to_string() of a Float, as Rust's shortest round-trip Display prints it: no exponent, no trailing `.0`. Spark writes Java's digits, plainly from 1e-3 to 1e7 (there only a trailing `.0` goes); outside that range a decimal of the right scale spells out its exponent.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_text(
    x DOUBLE
)
RETURNS STRING
RETURN CASE
  WHEN x IS NULL
  THEN CAST(NULL AS STRING)
  WHEN ISNAN(x)
  THEN 'NaN'
  WHEN x = CAST('Infinity' AS DOUBLE)
  THEN 'inf'
  WHEN x = CAST('-Infinity' AS DOUBLE)
  THEN '-inf'
  WHEN LOCATE('E', CAST(x AS STRING)) = 0
  THEN CASE
    WHEN CAST(x AS STRING) LIKE '%.0'
    THEN SUBSTRING(CAST(x AS STRING), 1, LENGTH(CAST(x AS STRING)) - 2)
    ELSE CAST(x AS STRING)
  END
  ELSE COALESCE(
    REGEXP_REPLACE(
      REGEXP_REPLACE(
        CASE
          WHEN ABS(x) >= CAST('1e+18' AS DOUBLE)
          THEN CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 0)) AS STRING)
          WHEN ABS(x) >= CAST('0.01' AS DOUBLE)
          THEN CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 18)) AS STRING)
          ELSE CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 37)) AS STRING)
        END,
        '(\\.[0-9]*?)0+$',
        '$1'
      ),
      '\\.$',
      ''
    ),
    CAST(x AS STRING)
  )
END;

-- CXL to_int() / try_int() on a Float, and a Float used as an Int argument: Rust's `f as i64`, which truncates toward zero, saturates at the Int range and gives 0 for NaN.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_to_int(
    x DOUBLE
)
RETURNS BIGINT
RETURN CASE
  WHEN ISNAN(x)
  THEN CAST(0 AS BIGINT)
  WHEN x >= CAST('9.223372036854776e+18' AS DOUBLE)
  THEN CAST(9223372036854775807 AS BIGINT)
  WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE)
  THEN CAST('-9223372036854775808' AS BIGINT)
  ELSE CAST(x AS BIGINT)
END;

-- CXL to_float() / try_float() on a String: Rust's f64 grammar (no surrounding blanks, no hex, no trailing `d`/`f`; inf, infinity and nan in any case); NULL when it does not parse.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_string_to_float(
    s STRING
)
RETURNS DOUBLE
RETURN CASE
  WHEN COALESCE(s RLIKE '^[+-]?(?i:nan)\\z', FALSE)
  THEN CAST('NaN' AS DOUBLE)
  WHEN COALESCE(
    s RLIKE '^[+-]?([0-9]+[.]?[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))\\z',
    FALSE
  )
  THEN TRY_CAST(s AS DOUBLE)
END;
