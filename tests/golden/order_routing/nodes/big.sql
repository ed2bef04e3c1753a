-- sink big: the statements that hold its logic (step 25 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from by_size.big: order_id, line, customer, region, cents

-- step 25
-- sink big: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `big.rows` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `by_size.big`;
