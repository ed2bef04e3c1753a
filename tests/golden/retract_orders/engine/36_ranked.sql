-- transform ranked: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   rank <- $window.row_number() [reads dept_totals.region, dept_totals.total]
--   region_total <- $window.sum(total) [reads dept_totals.total, dept_totals.region]
--   unchanged from dept_totals: region, dept, total, largest, orders, $ck.aggregate.dept_totals
CREATE OR REPLACE TEMPORARY VIEW `ranked` AS
SELECT
  `$out.region` AS `region`,
  `$out.dept` AS `dept`,
  `$out.total` AS `total`,
  `$out.largest` AS `largest`,
  `$out.orders` AS `orders`,
  `$out.rank` AS `rank`,
  `$out.region_total` AS `region_total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`
FROM `ranked.eval`
WHERE
  `$err` IS NULL AND `$keep`;
