-- A String as a JSON string literal, quoted and escaped as TO_JSON writes it (a value
-- set() puts into a JSON object, an object's key).
CREATE TEMPORARY FUNCTION cxl_json_string(s STRING) RETURNS STRING RETURN
REGEXP_EXTRACT(TO_JSON(ARRAY(s)), '^\\[(.*)\\]$', 1);
