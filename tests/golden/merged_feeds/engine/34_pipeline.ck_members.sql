-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
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
UNION ALL
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
FROM `margins_parquet.rows`;
