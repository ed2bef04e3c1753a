-- A JSON value read where a Bool is expected: true or false, else null.
CREATE TEMPORARY FUNCTION cxl_json_as_bool(text STRING) RETURNS BOOLEAN RETURN
CASE WHEN SCHEMA_OF_VARIANT(TRY_PARSE_JSON(text)) = 'BOOLEAN'
  THEN VARIANT_GET(TRY_PARSE_JSON(text), '$', 'BOOLEAN') END;
