-- transform priced: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   total <- price * qty (let price = unit_price.to_float()) [reads sales.unit_price, sales.qty]
--   unchanged from sales: sale_id, sku, qty, unit_price
CREATE OR REPLACE TEMPORARY VIEW `priced` AS
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
FROM `priced.carry`
WHERE
  `$live`;
