-- source orders: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `orders.split` AS
SELECT
  `order_id` AS `order_id`,
  `customer` AS `customer`,
  `items` AS `items`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `orders.scan`;
