-- route by_size: rows whose condition failed to evaluate
CREATE OR REPLACE TEMPORARY VIEW `by_size.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_field`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`value` AS `_cxl_dlq_triggering_value`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`category` AS `_cxl_dlq_error_category`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`detail` AS `_cxl_dlq_error_detail`,
  'route_eval' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  CAST(`line` AS STRING) AS `line`,
  `customer`,
  `amount`,
  `region`,
  CAST(`cents` AS STRING) AS `cents`,
  `$ck.order_id`
FROM `by_size.eval`
WHERE
  FALSE;
