-- aggregate dept_totals: the groups' stable numbers (first-seen order over every input row)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.index` AS
SELECT
  `$key.0`,
  `$key.1`,
  `$group.index`
FROM `dept_totals.final`;
