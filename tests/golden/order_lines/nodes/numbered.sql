-- transform numbered: the statements that hold its logic (step 17 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sku_number <- sku.substring(2).to_int() [reads lines.sku]
--   unchanged from lines: order_id, customer, items, line_count, sku, qty

-- step 17
-- transform numbered: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `numbered.eval` AS
SELECT
  *,
  CXL_STRING_TO_INT(
    SUBSTRING(
      `sku`,
      CAST(LEAST(
        COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
        CAST(2147483646 AS BIGINT)
      ) + 1 AS INT)
    )
  ) AS `$out.sku_number`
FROM `lines`;
