-- transform price: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   customer <- if customer.is_empty() then "unknown" else customer [reads orders.customer]
--   region <- region.upper() [reads orders.region]
--   cents <- cents (let cents = (amount.to_float() * 100.0).round().to_int()) [reads orders.amount]
--   unchanged from orders: order_id, line, amount, $ck.order_id
CREATE OR REPLACE TEMPORARY VIEW `price` AS
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
FROM `price.carry`
WHERE
  `$live`;
