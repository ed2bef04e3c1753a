-- DLQ triggers that do not depend on the retraction state
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers_early` AS
SELECT
  `$dlq`.`_cxl_dlq_source_file` AS `_cxl_dlq_source_file`,
  `$dlq`.`_cxl_dlq_source_name` AS `_cxl_dlq_source_name`,
  `$dlq`.`_cxl_dlq_source_row` AS `_cxl_dlq_source_row`,
  `$dlq`.`_cxl_dlq_triggering_field` AS `_cxl_dlq_triggering_field`,
  `$dlq`.`_cxl_dlq_triggering_value` AS `_cxl_dlq_triggering_value`,
  `$dlq`.`_cxl_dlq_error_category` AS `_cxl_dlq_error_category`,
  `$dlq`.`_cxl_dlq_error_detail` AS `_cxl_dlq_error_detail`,
  `$dlq`.`_cxl_dlq_stage` AS `_cxl_dlq_stage`,
  `$dlq`.`_cxl_dlq_route` AS `_cxl_dlq_route`,
  `$dlq`.`_cxl_dlq_trigger` AS `_cxl_dlq_trigger`,
  `$dlq`.`$source.order` AS `$source.order`,
  CASE `$dlq`.`$node`
    WHEN 'orders'
    THEN CAST(0 AS BIGINT)
    WHEN 'parse'
    THEN CAST(1 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['$ck.aggregate.dept_totals'] AS `$ck.aggregate.dept_totals`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['largest'] AS `largest`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['orders'] AS `orders`,
  `$dlq`.`$payload`['rank'] AS `rank`,
  `$dlq`.`$payload`['region'] AS `region`,
  `$dlq`.`$payload`['region_total'] AS `region_total`,
  `$dlq`.`$payload`['total'] AS `total`
FROM `parse.failed`
UNION ALL
SELECT
  `_cxl_dlq_source_file`,
  `_cxl_dlq_source_name`,
  `_cxl_dlq_source_row`,
  `_cxl_dlq_triggering_field`,
  `_cxl_dlq_triggering_value`,
  `_cxl_dlq_error_category`,
  `_cxl_dlq_error_detail`,
  `_cxl_dlq_stage`,
  `_cxl_dlq_route`,
  `_cxl_dlq_trigger`,
  `$source.order`,
  CAST(1 AS BIGINT) AS `$layout`,
  CAST(NULL AS STRING) AS `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `amount`,
  `dept`,
  CAST(NULL AS STRING) AS `largest`,
  `line`,
  `order_id`,
  CAST(NULL AS STRING) AS `orders`,
  CAST(NULL AS STRING) AS `rank`,
  `region`,
  CAST(NULL AS STRING) AS `region_total`,
  CAST(NULL AS STRING) AS `total`
FROM `dept_totals.errors`;
