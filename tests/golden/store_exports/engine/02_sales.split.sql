-- source sales: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `sales.split` AS
SELECT
  `sale_id` AS `sale_id`,
  `sku` AS `sku`,
  `qty` AS `qty`,
  `unit_price` AS `unit_price`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `sales.scan`;
