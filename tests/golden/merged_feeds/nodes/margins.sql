-- transform margins: the statements that hold its logic (step 26 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   store <- $source.name [reads $source.name]
--   margin_pct <- ((price - cost) / cost * 100.0).round(1) [reads feeds.price, feeds.cost]
--   updated_day <- updated.format_date("%Y-%m-%d") [reads feeds.updated]
--   flag <- if price < cost then "loss" else if price == cost then "even" else "ok" [reads feeds.price, feeds.cost]
--   unchanged from feeds: sku, price, cost, updated, $ck.sku

-- step 26
-- transform margins: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `margins.eval` AS
SELECT
  *,
  `$source.name` AS `$out.store`,
  CXL_FLOAT_ROUND(
    CASE WHEN `cost` = CAST('0.0' AS DOUBLE) THEN NULL ELSE (
      `price` - `cost`
    ) / `cost` END * CAST('100.0' AS DOUBLE),
    CAST(1 AS BIGINT)
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
    WHEN CASE WHEN ISNAN(`price`) OR ISNAN(`cost`) THEN FALSE ELSE `price` < `cost` END
    THEN 'loss'
    ELSE CASE
      WHEN `price` IS NOT DISTINCT FROM `cost` AND COALESCE(NOT ISNAN(`price`), TRUE)
      THEN 'even'
      ELSE 'ok'
    END
  END AS `$out.flag`
FROM `feeds`;
