-- A JSON object's entries, key to JSON text, in document order (null: not an object); a
-- string value is quoted again as in cxl_json_elements.
CREATE TEMPORARY FUNCTION cxl_json_entries(text STRING) RETURNS MAP<STRING, STRING> RETURN
TRANSFORM_VALUES(
  FROM_JSON(text, 'MAP<STRING, STRING>'),
  (json_key, json_value) -> CASE
    WHEN SCHEMA_OF_VARIANT(TRY_ELEMENT_AT(TRY_VARIANT_GET(TRY_PARSE_JSON(text), '$', 'MAP<STRING, VARIANT>'), json_key)) = 'STRING'
    THEN TO_JSON(TRY_ELEMENT_AT(TRY_VARIANT_GET(TRY_PARSE_JSON(text), '$', 'MAP<STRING, VARIANT>'), json_key))
    ELSE json_value
  END
);
