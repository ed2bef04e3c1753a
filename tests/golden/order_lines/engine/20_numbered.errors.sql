-- transform numbered: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `numbered.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:numbered' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  `customer`,
  `items`,
  CAST(`line_count` AS STRING) AS `line_count`,
  `sku`,
  CAST(`qty` AS STRING) AS `qty`
FROM `numbered.checked`
WHERE
  NOT `$err` IS NULL;
