-- aggregate dept_totals: groups whose finalize failed
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.finalize_errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'aggregate:dept_totals' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `region`,
  `dept`,
  CAST(`total` AS STRING) AS `total`,
  CAST(`largest` AS STRING) AS `largest`,
  CAST(`orders` AS STRING) AS `orders`,
  CAST(`$ck.aggregate.dept_totals` AS STRING) AS `$ck.aggregate.dept_totals`
FROM `dept_totals.final`
WHERE
  NOT `$err` IS NULL;
