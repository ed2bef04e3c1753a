-- sink margins_csv: the statements that hold its logic (step 30 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from margins: sku, price, cost, updated, store, margin_pct, updated_day, flag

-- step 30
-- sink margins_csv: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `margins_csv.rows` AS
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
