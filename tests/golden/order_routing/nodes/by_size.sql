-- route by_size: the statements that hold its logic (step 21 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from price: order_id, line, customer, amount, region, cents, $ck.order_id
--   rows: big: cents >= 10000

-- step 21
-- route by_size (exclusive): conditions
CREATE OR REPLACE TEMPORARY VIEW `by_size.eval` AS
SELECT
  *,
  `cents` >= CAST(10000 AS BIGINT) AS `$when.big`,
  NOT COALESCE((
    `cents` >= CAST(10000 AS BIGINT)
  ), FALSE) AS `$when.small`
FROM `price`;
