-- source sales: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sale_id <- csv column 'sale_id' of ./data/store_*.csv, as string
--   sku <- csv column 'sku' of ./data/store_*.csv, as string
--   qty <- csv column 'qty' of ./data/store_*.csv, as int
--   unit_price <- csv column 'unit_price' of ./data/store_*.csv, as string

-- step 10
-- source sales: every row typed
CREATE OR REPLACE TEMPORARY VIEW `sales.typed` AS
SELECT
  COALESCE(`sale_id`, '') AS `sale_id`,
  COALESCE(`sku`, '') AS `sku`,
  `$shared.0` AS `qty`,
  COALESCE(`unit_price`, '') AS `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `qty` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`qty` AS BIGINT) END AS `$shared.0`
  FROM `sales.rows`
) AS `input`;
