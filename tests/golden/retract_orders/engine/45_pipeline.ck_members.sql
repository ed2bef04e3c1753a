-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
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
  CASE
    WHEN `region_total` IS NULL
    THEN CAST(NULL AS STRING)
    WHEN ISNAN(`region_total`)
    THEN 'NaN'
    WHEN `region_total` = CAST('Infinity' AS DOUBLE)
    THEN 'inf'
    WHEN `region_total` = CAST('-Infinity' AS DOUBLE)
    THEN '-inf'
    WHEN LOCATE('E', CAST(`region_total` AS STRING)) = 0
    THEN CASE
      WHEN CAST(`region_total` AS STRING) LIKE '%.0'
      THEN SUBSTRING(CAST(`region_total` AS STRING), 1, LENGTH(CAST(`region_total` AS STRING)) - 2)
      ELSE CAST(`region_total` AS STRING)
    END
    ELSE COALESCE(
      REGEXP_REPLACE(
        REGEXP_REPLACE(
          CASE
            WHEN ABS(`region_total`) >= CAST('1e+18' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`region_total` AS STRING) AS DECIMAL(38, 0)) AS STRING)
            WHEN ABS(`region_total`) >= CAST('0.01' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`region_total` AS STRING) AS DECIMAL(38, 18)) AS STRING)
            ELSE CAST(TRY_CAST(CAST(`region_total` AS STRING) AS DECIMAL(38, 37)) AS STRING)
          END,
          '(\\.[0-9]*?)0+$',
          '$1'
        ),
        '\\.$',
        ''
      ),
      CAST(`region_total` AS STRING)
    )
  END AS `$payload.region_total`,
  CAST(`total` AS STRING) AS `$payload.total`
FROM `report.rows`;
