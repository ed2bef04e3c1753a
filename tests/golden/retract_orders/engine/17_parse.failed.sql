-- transform parse: the rows of the fused chain orders -> parse that failed (read from dept_totals.spec)
CREATE OR REPLACE TEMPORARY VIEW `parse.failed` AS
SELECT
  FROM_JSON(
    `$fail.entry`,
    'STRUCT<`_cxl_dlq_source_file`: STRING, `_cxl_dlq_source_name`: STRING, `_cxl_dlq_source_row`: BIGINT, `_cxl_dlq_triggering_field`: STRING, `_cxl_dlq_triggering_value`: STRING, `_cxl_dlq_error_category`: STRING, `_cxl_dlq_error_detail`: STRING, `_cxl_dlq_stage`: STRING, `_cxl_dlq_route`: STRING, `_cxl_dlq_trigger`: BOOLEAN, `$source.order`: BIGINT, `$node`: STRING, `$payload`: MAP<STRING, STRING>>'
  ) AS `$dlq`
FROM `dept_totals.spec`
WHERE
  NOT `$fail` IS NULL;
