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
      CAST(2 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
      `amount` AS `$payload.amount`,
      CAST(`cents` AS STRING) AS `$payload.cents`,
      `customer` AS `$payload.customer`,
      CAST(`line` AS STRING) AS `$payload.line`,
      `order_id` AS `$payload.order_id`,
      `region` AS `$payload.region`
    FROM `big.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  WHERE
    NOT dirty.`$source.name` IS NULL OR NOT overflow.`$first` IS NULL
  UNION ALL
  SELECT /*+ BROADCAST(dirty),
    BROADCAST(overflow) */
    members.*,
    NOT dirty.`$source.name` IS NULL AS `$dirty`,
    overflow.`$first` AS `$first`
  FROM (
    SELECT
      CAST(1 AS BIGINT) AS `$sink`,
      CAST(2 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
      `amount` AS `$payload.amount`,
      CAST(`cents` AS STRING) AS `$payload.cents`,
      `customer` AS `$payload.customer`,
      CAST(`line` AS STRING) AS `$payload.line`,
      `order_id` AS `$payload.order_id`,
      `region` AS `$payload.region`
    FROM `small.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
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
  `$ck.order_id`,
  `$payload.amount` AS `amount`,
  `$payload.cents` AS `cents`,
  `$payload.customer` AS `customer`,
  `$payload.line` AS `line`,
  `$payload.order_id` AS `order_id`,
  `$payload.region` AS `region`
FROM flagged
WHERE
  `$copy` = 1;
