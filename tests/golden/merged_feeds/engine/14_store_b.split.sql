-- source store_b: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `store_b.split` AS
SELECT
  `sku` AS `sku`,
  `price` AS `price`,
  `cost` AS `cost`,
  `updated` AS `updated`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `store_b.scan`;
