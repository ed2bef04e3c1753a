-- merge feeds: the statements that hold its logic (step 25 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sku <- union of the inputs [reads store_a.sku, store_b.sku]
--   price <- union of the inputs [reads store_a.price, store_b.price]
--   cost <- union of the inputs [reads store_a.cost, store_b.cost]
--   updated <- union of the inputs [reads store_a.updated, store_b.updated]
--   $ck.sku <- union of the inputs [reads store_a.$ck.sku, store_b.$ck.sku]

-- step 25
-- merge feeds: store_a, store_b
CREATE OR REPLACE TEMPORARY VIEW `feeds` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `store_a`
UNION ALL
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `store_b`;
