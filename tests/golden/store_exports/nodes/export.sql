-- sink export: the statements that hold its logic (step 20 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from priced: sale_id, sku, qty, unit_price, total

-- step 20
-- sink export: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `export.rows` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `priced`;
