-- A JSON value as a CSV cell: a string as its characters, anything else as its JSON text.
CREATE TEMPORARY FUNCTION cxl_json_cell(text STRING) RETURNS STRING RETURN
CASE WHEN SCHEMA_OF_VARIANT(TRY_PARSE_JSON(text)) = 'STRING'
  THEN VARIANT_GET(TRY_PARSE_JSON(text), '$', 'STRING') ELSE text END;
