-- A JSON value read where a number is expected (compared with an Int or a Float): a JSON
-- number as a Float, else null.
CREATE TEMPORARY FUNCTION cxl_json_as_double(text STRING) RETURNS DOUBLE RETURN
CASE
  WHEN SCHEMA_OF_VARIANT(TRY_PARSE_JSON(text)) IN ('TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE')
    OR STARTSWITH(SCHEMA_OF_VARIANT(TRY_PARSE_JSON(text)), 'DECIMAL')
  THEN VARIANT_GET(TRY_PARSE_JSON(text), '$', 'DOUBLE')
END;
