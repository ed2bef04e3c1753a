-- sink report: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `report.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `report.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON (
    `dirty`.`$source.name` = `rows`.`$source.name`
    OR `rows`.`$source.name` = '<merged>'
  )
  AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM CAST(NULL AS STRING)
  AND `dirty`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM NULLIF(CAST(`rows`.`$ck.aggregate.dept_totals` AS STRING), '')
LEFT ANTI JOIN (
  SELECT DISTINCT
    `_cxl_dlq_source_name` AS `$source.name`,
    `_cxl_dlq_source_row` AS `$source.row`
  FROM `$pipeline.triggers`
  WHERE
    `_cxl_dlq_stage` <> 'source'
    AND NOT (
      NOT (
        COALESCE(`$ck.order_id`, '') = ''
      )
      OR NOT (
        COALESCE(`$ck.aggregate.dept_totals`, '') = ''
      )
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM CAST(NULL AS STRING)
  AND `overflow`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM NULLIF(CAST(`rows`.`$ck.aggregate.dept_totals` AS STRING), '');
