-- source orders: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   order_id <- csv column 'order_id' of ./data/orders.csv, as string
--   customer <- csv column 'customer' of ./data/orders.csv, as string
--   items <- csv column 'items' of ./data/orders.csv, as string

-- step 10
-- source orders: typed rows (values that do not cast go to the DLQ)
CREATE OR REPLACE TEMPORARY VIEW `orders` AS
SELECT
  COALESCE(`order_id`, '') AS `order_id`,
  COALESCE(`customer`, '') AS `customer`,
  COALESCE(`items`, '') AS `items`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `orders.rows`
WHERE
  NOT (
    FALSE
  );
