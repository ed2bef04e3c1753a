-- dept_totals.final.clean_groups: run in place of dept_totals.final when $pipeline.triggers_early has no row: nothing is retracted before it
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.final` AS
SELECT
  `region`,
  `dept`,
  `$agg.0` AS `total`,
  `$agg.1` AS `largest`,
  `$agg.2` AS `orders`,
  '<merged>' AS `$source.name`,
  '<merged>' AS `$source.file`,
  CAST(`groups`.`$group.index` + 1 AS BIGINT) AS `$source.row`,
  CAST('-1' AS BIGINT) AS `$source.order`,
  CAST(`groups`.`$group.index` + 1 AS BIGINT) - CAST(1 AS BIGINT) AS `$ck.aggregate.dept_totals`,
  CASE
    WHEN `$agg.0.overflow`
    THEN STRUCT(
      'aggregate_finalize' AS category,
      CONCAT('row ', CAST(`$source.row` AS STRING), ': ', 'aggregate dept_totals.sum: integer overflow') AS detail,
      CAST(NULL AS STRING) AS field,
      CAST(NULL AS STRING) AS value
    )
  END AS `$err`,
  `groups`.`region` AS `$key.0`,
  `groups`.`dept` AS `$key.1`,
  `groups`.`$group.index` AS `$group.index`
FROM (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY `$first`) - 1 AS `$group.index`
  FROM `dept_totals.spec_groups`
) AS groups
WHERE
  `$live`;
