-- transform parse: the statements that hold its logic (step 12 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   amount <- amount.to_int() [reads orders.amount]
--   unchanged from orders: order_id, line, region, dept, $ck.order_id

-- step 12
-- transform parse: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `parse.eval` AS
SELECT
  *,
  `order_id` AS `$out.order_id`,
  `region` AS `$out.region`,
  `dept` AS `$out.dept`,
  `$shared.0` AS `$out.amount`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;
