-- transform ranked: good rows
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
FROM `ranked.checked`
WHERE
  `$err` IS NULL AND `$keep`;
