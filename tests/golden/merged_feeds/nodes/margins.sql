-- transform margins: the statements that hold its logic (step 26 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   store <- $source.name [reads $source.name]
--   margin_pct <- ((price - cost) / cost * 100.0).round(1) [reads feeds.price, feeds.cost]
--   updated_day <- updated.format_date("%Y-%m-%d") [reads feeds.updated]
--   flag <- if price < cost then "loss" else if price == cost then "even" else "ok" [reads feeds.price, feeds.cost]
--   unchanged from feeds: sku, price, cost, updated, $ck.sku

-- step 26
-- transform margins: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `margins.eval` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`,
  `$source.name` AS `$out.store`,
  CXL_FLOAT_ROUND(
    CASE
      WHEN COALESCE((
        `cost` = CAST('0.0' AS DOUBLE)
      ), FALSE)
      THEN NULL
      ELSE (
        `price` - `cost`
      ) / `cost`
    END * CAST('100.0' AS DOUBLE),
    COALESCE(CAST(1 AS BIGINT), CAST(0 AS BIGINT))
  ) AS `$out.margin_pct`,
  CASE
    WHEN NOT `updated` IS NULL
    THEN CONCAT(
      CASE
        WHEN LENGTH(CAST(YEAR(`updated`) AS STRING)) >= 4
        THEN CAST(YEAR(`updated`) AS STRING)
        ELSE LPAD(CAST(YEAR(`updated`) AS STRING), 4, '0')
      END,
      '-',
      CASE
        WHEN LENGTH(CAST(MONTH(`updated`) AS STRING)) >= 2
        THEN CAST(MONTH(`updated`) AS STRING)
        ELSE LPAD(CAST(MONTH(`updated`) AS STRING), 2, '0')
      END,
      '-',
      CASE
        WHEN LENGTH(CAST(DAYOFMONTH(`updated`) AS STRING)) >= 2
        THEN CAST(DAYOFMONTH(`updated`) AS STRING)
        ELSE LPAD(CAST(DAYOFMONTH(`updated`) AS STRING), 2, '0')
      END
    )
  END AS `$out.updated_day`,
  CASE
    WHEN COALESCE(
      CASE
        WHEN COALESCE((
          ISNAN(`price`) OR ISNAN(`cost`)
        ), FALSE)
        THEN FALSE
        ELSE `price` < `cost`
      END,
      FALSE
    )
    THEN 'loss'
    ELSE CASE
      WHEN COALESCE(
        (
          `price` IS NOT DISTINCT FROM `cost` AND COALESCE(NOT ISNAN(`price`), TRUE)
        ),
        FALSE
      )
      THEN 'even'
      ELSE 'ok'
    END
  END AS `$out.flag`,
  TRUE AS `$keep`,
  CASE
    WHEN COALESCE((
      `cost` = CAST('0.0' AS DOUBLE)
    ), FALSE)
    THEN STRUCT(
      'type_coercion_failure' AS category,
      CONCAT(
        'row ',
        CAST(`$source.row` AS STRING),
        ': ',
        'field \'margin_pct\': ',
        'division by zero'
      ) AS detail,
      'margin_pct' AS field,
      CAST(NULL AS STRING) AS value
    )
  END AS `$err`
FROM `feeds`;
