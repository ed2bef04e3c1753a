-- transform margins: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `margins.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:margins' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `sku`,
  CXL_FLOAT_TEXT(`price`) AS `price`,
  CXL_FLOAT_TEXT(`cost`) AS `cost`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `updated`,
  `$ck.sku`
FROM `margins.checked`
WHERE
  NOT `$err` IS NULL;
