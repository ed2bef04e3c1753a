-- sink small: the statements that hold its logic (step 26 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from by_size.small: order_id, line, customer, amount, region, cents

-- step 26
-- sink small: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `small.rows` AS
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
FROM `by_size.small`;
