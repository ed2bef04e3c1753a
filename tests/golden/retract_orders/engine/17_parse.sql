-- transform parse: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   amount <- amount.to_int() [reads orders.amount]
--   unchanged from orders: order_id, line, region, dept, $ck.order_id
CREATE OR REPLACE TEMPORARY VIEW `parse` AS
SELECT
  `order_id`,
  `line`,
  `region`,
  `dept`,
  `amount`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `parse.carry`
WHERE
  `$live`;
