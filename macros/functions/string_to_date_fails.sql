-- The fault test of CXL to_date() on a String: a value is present and does not convert.
CREATE TEMPORARY FUNCTION cxl_string_to_date_fails(s STRING) RETURNS BOOLEAN RETURN
NOT s IS NULL AND cxl_string_to_date(s) IS NULL;
