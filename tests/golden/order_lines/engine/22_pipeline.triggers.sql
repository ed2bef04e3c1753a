-- DLQ triggers: every node's error view
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
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
  CAST(0 AS BIGINT) AS `$layout`,
  `customer`,
  `items`,
  CAST(NULL AS STRING) AS `line_count`,
  `order_id`,
  CAST(NULL AS STRING) AS `qty`,
  CAST(NULL AS STRING) AS `sku`
FROM `orders.errors`
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
  CAST(0 AS BIGINT) AS `$layout`,
  `customer`,
  `items`,
  CAST(NULL AS STRING) AS `line_count`,
  `order_id`,
  CAST(NULL AS STRING) AS `qty`,
  CAST(NULL AS STRING) AS `sku`
FROM `lines.errors`
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
  `customer`,
  `items`,
  `line_count`,
  `order_id`,
  `qty`,
  `sku`
FROM `numbered.errors`;
