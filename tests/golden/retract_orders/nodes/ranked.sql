-- transform ranked: the statements that hold its logic (step 36 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   rank <- $window.row_number() [reads dept_totals.region, dept_totals.total]
--   region_total <- $window.sum(total) [reads dept_totals.total, dept_totals.region]
--   unchanged from dept_totals: region, dept, total, largest, orders, $ck.aggregate.dept_totals

-- step 36
-- transform ranked: the CXL, one column per emit (window in buffer mode: partitions recomputed over surviving rows)
CREATE OR REPLACE TEMPORARY VIEW `ranked.eval` AS
SELECT
  *,
  `region` AS `$out.region`,
  `dept` AS `$out.dept`,
  `total` AS `$out.total`,
  `largest` AS `$out.largest`,
  `orders` AS `$out.orders`,
  CASE
    WHEN `region` IS NULL OR `$retracted` IS NULL
    THEN CAST(NULL AS BIGINT)
    ELSE CAST(ROW_NUMBER() OVER (
      PARTITION BY `region`, `$retracted`
      ORDER BY `total` DESC, `$source.order` NULLS LAST, `$source.row` NULLS LAST
    ) AS BIGINT)
  END AS `$out.rank`,
  CASE
    WHEN `region` IS NULL OR `$retracted` IS NULL
    THEN CAST(NULL AS DOUBLE)
    ELSE CAST(SUM(CAST(`total` AS DOUBLE)) OVER (PARTITION BY `region`, `$retracted`) AS DOUBLE)
  END AS `$out.region_total`
FROM `ranked.input`;
