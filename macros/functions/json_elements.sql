-- A JSON array's elements as JSON texts, in document order (null: not an array); the CXL
-- type `json` holds a value as its text (cxl/json_values.py). FROM_JSON keeps a nested
-- array or object as its text but gives a string element unquoted: the VARIANT of the
-- same text says which elements are strings, and TO_JSON quotes those again.
CREATE TEMPORARY FUNCTION cxl_json_elements(text STRING) RETURNS ARRAY<STRING> RETURN
TRANSFORM(
  FROM_JSON(text, 'ARRAY<STRING>'),
  (json_elem, json_i) -> CASE
    WHEN SCHEMA_OF_VARIANT(GET(TRY_VARIANT_GET(TRY_PARSE_JSON(text), '$', 'ARRAY<VARIANT>'), json_i)) = 'STRING'
    THEN TO_JSON(GET(TRY_VARIANT_GET(TRY_PARSE_JSON(text), '$', 'ARRAY<VARIANT>'), json_i))
    ELSE json_elem
  END
);
