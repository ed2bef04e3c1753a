-- sink order_lines: the statements that hold its logic (step 21 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from numbered: order_id, customer, items, line_count, sku, qty, sku_number

-- step 21
-- sink order_lines: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `order_lines.rows` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `sku_number`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`
FROM `numbered`;
