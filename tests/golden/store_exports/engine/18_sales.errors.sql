-- transform sales: rows whose evaluation failed (read from priced.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `sales.errors` AS
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
  `$dlq`.`$payload`['sale_id'] AS `sale_id`,
  `$dlq`.`$payload`['sku'] AS `sku`,
  `$dlq`.`$payload`['qty'] AS `qty`,
  `$dlq`.`$payload`['unit_price'] AS `unit_price`
FROM `priced.failed`
WHERE
  `$dlq`.`$node` = 'sales';
