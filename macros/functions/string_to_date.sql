-- CXL to_date() / try_date() on a String with no format: chrono's `%Y-%m-%d` (one- or
-- two-digit month and day, nothing around it); NULL when it does not parse.
CREATE TEMPORARY FUNCTION cxl_string_to_date(s STRING) RETURNS DATE RETURN
CASE WHEN COALESCE(s RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE) THEN TRY_CAST(s AS DATE) END;
