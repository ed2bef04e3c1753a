-- The DLQ message of a failed CXL to_*() conversion: the value as text and the target type.
CREATE TEMPORARY FUNCTION cxl_conversion_failed(text STRING, target STRING) RETURNS STRING RETURN
CONCAT('conversion failed: cannot convert \'', text, '\' to ', target);
