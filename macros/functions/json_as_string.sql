-- A JSON value read where a String is expected (a comparison): its characters when it is
-- a string, else null.
CREATE TEMPORARY FUNCTION cxl_json_as_string(text STRING) RETURNS STRING RETURN
CASE WHEN SCHEMA_OF_VARIANT(TRY_PARSE_JSON(text)) = 'STRING'
  THEN VARIANT_GET(TRY_PARSE_JSON(text), '$', 'STRING') END;
