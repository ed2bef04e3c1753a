-- source orders: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   order_id <- csv column 'order_id' of ./data/orders.csv, as string
--   line <- csv column 'line' of ./data/orders.csv, as int
--   customer <- csv column 'customer' of ./data/orders.csv, as string
--   amount <- csv column 'amount' of ./data/orders.csv, as string
--   region <- csv column 'region' of ./data/orders.csv, as string
--   $ck.order_id <- correlation key: a copy of 'order_id' taken at ingest

-- step 10
-- source orders: every row typed
CREATE OR REPLACE TEMPORARY VIEW `orders.typed` AS
SELECT
  COALESCE(`order_id`, '') AS `order_id`,
  `$shared.0` AS `line`,
  COALESCE(`customer`, '') AS `customer`,
  COALESCE(`amount`, '') AS `amount`,
  COALESCE(`region`, '') AS `region`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  COALESCE(`order_id`, '') AS `$ck.order_id`,
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `line` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`line` AS BIGINT) END AS `$shared.0`
  FROM `orders.rows`
) AS `input`;
