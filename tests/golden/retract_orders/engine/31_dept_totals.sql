-- aggregate dept_totals: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   total <- sum(amount) [reads parse.amount]
--   largest <- max(amount) [reads parse.amount]
--   orders <- count(*)
--   $ck.aggregate.dept_totals <- the stable group number of this retraction-mode aggregate (0-based, first-seen order)
--   unchanged from parse: region, dept
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
