-- CXL to_bool() / try_bool() on a String: true/1/yes and false/0/no in any case; NULL
-- for anything else.
CREATE TEMPORARY FUNCTION cxl_string_to_bool(s STRING) RETURNS BOOLEAN RETURN
CASE WHEN LOWER(s) IN ('true', '1', 'yes') THEN TRUE WHEN LOWER(s) IN ('false', '0', 'no') THEN FALSE END;
