-- transform priced: the statements that hold its logic (step 12 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   total <- price * qty (let price = unit_price.to_float()) [reads sales.unit_price, sales.qty]
--   unchanged from sales: sale_id, sku, qty, unit_price

-- step 12
-- transform priced: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `priced.eval` AS
SELECT
  *,
  `$shared.0` * CAST(`qty` AS DOUBLE) AS `$out.total`
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`unit_price`) AS `$shared.0`
  FROM `sales.carry`
) AS `input`;
