-- aggregate dept_totals: the groups of dept_totals.spec, as if nothing were retracted (read for dept_totals.final when nothing is)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.spec_groups` AS
SELECT
  `region`,
  `dept`,
  `$agg.0`,
  `$agg.0.overflow`,
  `$agg.1`,
  `$agg.2`,
  `$first`,
  TRUE AS `$live`
FROM `dept_totals.spec`
WHERE
  `$fail` IS NULL;
