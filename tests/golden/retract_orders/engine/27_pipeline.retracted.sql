-- retraction: the first pass retracts the cells of the triggers raised before any retraction-mode node
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.retracted` AS
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  CAST(NULL AS BIGINT) AS `$source.row`
FROM `$pipeline.triggers_early`
WHERE
  `_cxl_dlq_stage` <> 'source' AND NOT (
    COALESCE(`$ck.order_id`, '') = ''
  )
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  `_cxl_dlq_source_row` AS `$source.row`
FROM `$pipeline.triggers_early`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND NOT (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
  )
  AND `_cxl_dlq_source_name` <> '<merged>';
