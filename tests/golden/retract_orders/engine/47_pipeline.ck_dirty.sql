-- correlation: (source, key) cells that hold a trigger
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_dirty` AS
SELECT DISTINCT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  NULLIF(`$ck.aggregate.dept_totals`, '') AS `$ck.aggregate.dept_totals`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
    OR NOT (
      COALESCE(`$ck.aggregate.dept_totals`, '') = ''
    )
  );
