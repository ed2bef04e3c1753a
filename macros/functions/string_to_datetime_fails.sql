-- The fault test of CXL to_datetime() on a String: a value is present and does not convert.
CREATE TEMPORARY FUNCTION cxl_string_to_datetime_fails(s STRING) RETURNS BOOLEAN RETURN
NOT s IS NULL AND cxl_string_to_datetime(s) IS NULL;
