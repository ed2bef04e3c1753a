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
      NULLIF(`$ck.sku`, '') AS `$ck.sku`,
      CASE
        WHEN `cost` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`cost`)
        THEN 'NaN'
        WHEN `cost` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `cost` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`cost` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`cost` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`cost` AS STRING), 1, LENGTH(CAST(`cost` AS STRING)) - 2)
          ELSE CAST(`cost` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`cost`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`cost`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`cost` AS STRING)
        )
      END AS `$payload.cost`,
      `flag` AS `$payload.flag`,
      CASE
        WHEN `margin_pct` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`margin_pct`)
        THEN 'NaN'
        WHEN `margin_pct` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `margin_pct` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`margin_pct` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`margin_pct` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`margin_pct` AS STRING), 1, LENGTH(CAST(`margin_pct` AS STRING)) - 2)
          ELSE CAST(`margin_pct` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`margin_pct`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`margin_pct`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`margin_pct` AS STRING)
        )
      END AS `$payload.margin_pct`,
      CASE
        WHEN `price` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`price`)
        THEN 'NaN'
        WHEN `price` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `price` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`price` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`price` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`price` AS STRING), 1, LENGTH(CAST(`price` AS STRING)) - 2)
          ELSE CAST(`price` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`price`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`price`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`price` AS STRING)
        )
      END AS `$payload.price`,
      `sku` AS `$payload.sku`,
      `store` AS `$payload.store`,
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ) AS `$payload.updated`,
      `updated_day` AS `$payload.updated_day`
    FROM `margins_csv.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
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
      NULLIF(`$ck.sku`, '') AS `$ck.sku`,
      CASE
        WHEN `cost` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`cost`)
        THEN 'NaN'
        WHEN `cost` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `cost` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`cost` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`cost` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`cost` AS STRING), 1, LENGTH(CAST(`cost` AS STRING)) - 2)
          ELSE CAST(`cost` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`cost`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`cost`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`cost` AS STRING)
        )
      END AS `$payload.cost`,
      `flag` AS `$payload.flag`,
      CASE
        WHEN `margin_pct` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`margin_pct`)
        THEN 'NaN'
        WHEN `margin_pct` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `margin_pct` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`margin_pct` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`margin_pct` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`margin_pct` AS STRING), 1, LENGTH(CAST(`margin_pct` AS STRING)) - 2)
          ELSE CAST(`margin_pct` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`margin_pct`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`margin_pct`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`margin_pct` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`margin_pct` AS STRING)
        )
      END AS `$payload.margin_pct`,
      CASE
        WHEN `price` IS NULL
        THEN CAST(NULL AS STRING)
        WHEN ISNAN(`price`)
        THEN 'NaN'
        WHEN `price` = CAST('Infinity' AS DOUBLE)
        THEN 'inf'
        WHEN `price` = CAST('-Infinity' AS DOUBLE)
        THEN '-inf'
        WHEN LOCATE('E', CAST(`price` AS STRING)) = 0
        THEN CASE
          WHEN CAST(`price` AS STRING) LIKE '%.0'
          THEN SUBSTRING(CAST(`price` AS STRING), 1, LENGTH(CAST(`price` AS STRING)) - 2)
          ELSE CAST(`price` AS STRING)
        END
        ELSE COALESCE(
          REGEXP_REPLACE(
            REGEXP_REPLACE(
              CASE
                WHEN ABS(`price`) >= CAST('1e+18' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                WHEN ABS(`price`) >= CAST('0.01' AS DOUBLE)
                THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                ELSE CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 37)) AS STRING)
              END,
              '(\\.[0-9]*?)0+$',
              '$1'
            ),
            '\\.$',
            ''
          ),
          CAST(`price` AS STRING)
        )
      END AS `$payload.price`,
      `sku` AS `$payload.sku`,
      `store` AS `$payload.store`,
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ) AS `$payload.updated`,
      `updated_day` AS `$payload.updated_day`
    FROM `margins_parquet.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
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
  `$ck.sku`,
  `$payload.cost` AS `cost`,
  `$payload.flag` AS `flag`,
  `$payload.margin_pct` AS `margin_pct`,
  `$payload.price` AS `price`,
  `$payload.sku` AS `sku`,
  `$payload.store` AS `store`,
  `$payload.updated` AS `updated`,
  `$payload.updated_day` AS `updated_day`
FROM flagged
WHERE
  `$copy` = 1;
