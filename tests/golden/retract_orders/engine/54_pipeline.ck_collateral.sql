-- correlation: collateral DLQ entries (chosen for speed: broadcast joins of the small dirty and overflow cells; only the rows of hit groups are ranked)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_collateral` AS
WITH joined AS (
  SELECT /*+ BROADCAST(dirty),
    BROADCAST(overflow) */
    members.*,
    NOT dirty.`$source.name` IS NULL AS `$dirty`,
    overflow.`$first` AS `$first`
  FROM (
    SELECT
      CAST(0 AS BIGINT) AS `$sink`,
      CAST(3 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      CAST(NULL AS STRING) AS `$ck.order_id`,
      NULLIF(CAST(`$ck.aggregate.dept_totals` AS STRING), '') AS `$ck.aggregate.dept_totals`,
      CAST(NULL AS STRING) AS `$payload.amount`,
      `dept` AS `$payload.dept`,
      CAST(`largest` AS STRING) AS `$payload.largest`,
      CAST(NULL AS STRING) AS `$payload.line`,
      CAST(NULL AS STRING) AS `$payload.order_id`,
      CAST(`orders` AS STRING) AS `$payload.orders`,
      CAST(`rank` AS STRING) AS `$payload.rank`,
      `region` AS `$payload.region`,
      CXL_FLOAT_TEXT(`region_total`) AS `$payload.region_total`,
      CAST(`total` AS STRING) AS `$payload.total`
    FROM `report.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON (
      `dirty`.`$source.name` = `members`.`$source.name`
      OR `members`.`$source.name` = '<merged>'
    )
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
    AND `dirty`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM `members`.`$ck.aggregate.dept_totals`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
    AND `overflow`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM `members`.`$ck.aggregate.dept_totals`
  WHERE
    NOT dirty.`$source.name` IS NULL OR NOT overflow.`$first` IS NULL
), hit AS (
  SELECT
    joined.*
  FROM joined
  LEFT ANTI JOIN `$pipeline.triggers` AS triggers
    ON triggers.`_cxl_dlq_source_name` = joined.`$source.name`
    AND triggers.`_cxl_dlq_source_row` = joined.`$source.row`
), flagged AS (
  SELECT
    hit.*,
    ROW_NUMBER() OVER (PARTITION BY hit.`$source.name`, hit.`$source.row` ORDER BY hit.`$sink`) AS `$copy`
  FROM hit
)
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_field`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_value`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN 'group_size_exceeded'
    ELSE 'correlated'
  END AS `_cxl_dlq_error_category`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN 'correlation group exceeds max_group_buffer (100000)'
    ELSE 'correlated with failure in group'
  END AS `_cxl_dlq_error_detail`,
  'correlation_commit' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN TRUE
    ELSE FALSE
  END AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `$layout`,
  `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `$payload.amount` AS `amount`,
  `$payload.dept` AS `dept`,
  `$payload.largest` AS `largest`,
  `$payload.line` AS `line`,
  `$payload.order_id` AS `order_id`,
  `$payload.orders` AS `orders`,
  `$payload.rank` AS `rank`,
  `$payload.region` AS `region`,
  `$payload.region_total` AS `region_total`,
  `$payload.total` AS `total`
FROM flagged
WHERE
  `$copy` = 1;
