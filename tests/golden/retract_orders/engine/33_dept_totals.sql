-- aggregate dept_totals: good rows
CREATE OR REPLACE TEMPORARY VIEW `dept_totals` AS
SELECT
  `region`,
  `dept`,
  `total`,
  `largest`,
  `orders`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`
FROM `dept_totals.final`
WHERE
  `$err` IS NULL;
