-- transform numbered: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sku_number <- sku.substring(2).to_int() [reads lines.sku]
--   unchanged from lines: order_id, customer, items, line_count, sku, qty
CREATE OR REPLACE TEMPORARY VIEW `numbered` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `$out.sku_number` AS `sku_number`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`
FROM `numbered.eval`
WHERE
  `$err` IS NULL AND `$keep`;
