-- sink big: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `big.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `big.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON `dirty`.`$source.name` = `rows`.`$source.name`
  AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '')
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
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '');
