-- transform price: the statements that hold its logic (step 12 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   customer <- if customer.is_empty() then "unknown" else customer [reads orders.customer]
--   region <- region.upper() [reads orders.region]
--   cents <- cents (let cents = (amount.to_float() * 100.0).round().to_int()) [reads orders.amount]
--   unchanged from orders: order_id, line, amount, $ck.order_id

-- step 12
-- transform price: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `price.eval` AS
SELECT
  *,
  `order_id` AS `$out.order_id`,
  `line` AS `$out.line`,
  CASE WHEN `customer` IS NULL OR `customer` = '' THEN 'unknown' ELSE `customer` END AS `$out.customer`,
  CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) AS `$out.cents`,
  UPPER(`region`) AS `$out.region`
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;
