-- dept_totals: input rows, flagged when retracted (chosen for speed: broadcast joins, the retracted cells are few)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.input` AS
SELECT /*+ BROADCAST(cells),
  BROADCAST(single) */
  input.*,
  (
    NOT cells.`$hit` IS NULL OR NOT single.`$hit` IS NULL
  ) AS `$retracted`
FROM `dept_totals.eval` AS input
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$ck.order_id`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    `$source.row` IS NULL
) AS cells
  ON `cells`.`$source.name` = `input`.`$source.name`
  AND `cells`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`input`.`$ck.order_id`, '')
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$source.row`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    NOT `$source.row` IS NULL
) AS single
  ON single.`$source.name` = input.`$source.name`
  AND single.`$source.row` = input.`$source.row`;
