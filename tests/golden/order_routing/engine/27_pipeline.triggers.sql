-- DLQ triggers: every node's error view
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
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
    WHEN 'price'
    THEN CAST(1 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['cents'] AS `cents`,
  `$dlq`.`$payload`['customer'] AS `customer`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['region'] AS `region`
FROM `price.failed`
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
  CAST(2 AS BIGINT) AS `$layout`,
  `$ck.order_id`,
  `amount`,
  `cents`,
  `customer`,
  `line`,
  `order_id`,
  `region`
FROM `by_size.errors`;
