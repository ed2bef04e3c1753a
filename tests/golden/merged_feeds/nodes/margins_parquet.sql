-- sink margins_parquet: the statements that hold its logic (step 31 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from margins: sku, price, cost, updated, store, margin_pct, updated_day, flag

-- step 31
-- sink margins_parquet: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `margins_parquet.rows` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `store`,
  `margin_pct`,
  `updated_day`,
  `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins`;
