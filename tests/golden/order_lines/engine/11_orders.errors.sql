-- source orders: DLQ entries for values that violate the declared type
CREATE OR REPLACE TEMPORARY VIEW `orders.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CASE WHEN FALSE THEN 'order_id' END AS `_cxl_dlq_triggering_field`,
  CASE WHEN FALSE THEN COALESCE(`order_id`, '') END AS `_cxl_dlq_triggering_value`,
  'type_coercion_failure' AS `_cxl_dlq_error_category`,
  NULL AS `_cxl_dlq_error_detail`,
  'source' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  `customer`,
  `items`
FROM `orders.rows`
WHERE
  FALSE;
