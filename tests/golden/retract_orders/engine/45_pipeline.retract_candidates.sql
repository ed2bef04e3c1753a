-- retraction: what the next pass retracts
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.retract_candidates` AS
SELECT
  *
FROM `$pipeline.retracted`
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  CAST(NULL AS BIGINT) AS `$source.row`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source' AND NOT (
    COALESCE(`$ck.order_id`, '') = ''
  )
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
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
UNION
SELECT /*+ BROADCAST(`h`) */
  `e`.`$source.name` AS `$source.name`,
  NULLIF(
    CAST(CASE WHEN NOT `e`.`$ck.order_id` IS NULL THEN `e`.`$ck.order_id` END AS STRING),
    ''
  ) AS `$ck.order_id`,
  CASE
    WHEN NOT `e`.`$ck.order_id` IS NULL
    THEN CAST(NULL AS BIGINT)
    ELSE `e`.`$source.row`
  END AS `$source.row`
FROM `dept_totals.eval` AS `e`
LEFT SEMI JOIN (
  SELECT
    `i`.`$key.0` AS `$key.0`,
    `i`.`$key.1` AS `$key.1`
  FROM `dept_totals.index` AS `i`
  JOIN (
    SELECT DISTINCT
      CAST(`$ck.aggregate.dept_totals` AS BIGINT) AS `idx`
    FROM `$pipeline.triggers`
    WHERE
      NOT `$ck.aggregate.dept_totals` IS NULL
  ) AS `f`
    ON `f`.`idx` = `i`.`$group.index`
) AS `h`
  ON `e`.`region` IS NOT DISTINCT FROM `h`.`$key.0`
  AND `e`.`dept` IS NOT DISTINCT FROM `h`.`$key.1`;
