-- sink margins_csv: write csv to ./out/margins.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/margins.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
    CASE
      WHEN `sku` IS NULL
      THEN ''
      WHEN CONTAINS(`sku`, ',')
      OR CONTAINS(`sku`, '"')
      OR CONTAINS(`sku`, '\n')
      OR CONTAINS(`sku`, '\r')
      THEN CONCAT('"', REPLACE(`sku`, '"', '""'), '"')
      ELSE `sku`
    END,
    COALESCE(
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
      END,
      ''
    ),
    COALESCE(
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
      END,
      ''
    ),
    COALESCE(
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ),
      ''
    ),
    CASE
      WHEN `store` IS NULL
      THEN ''
      WHEN CONTAINS(`store`, ',')
      OR CONTAINS(`store`, '"')
      OR CONTAINS(`store`, '\n')
      OR CONTAINS(`store`, '\r')
      THEN CONCAT('"', REPLACE(`store`, '"', '""'), '"')
      ELSE `store`
    END,
    COALESCE(
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
      END,
      ''
    ),
    CASE
      WHEN `updated_day` IS NULL
      THEN ''
      WHEN CONTAINS(`updated_day`, ',')
      OR CONTAINS(`updated_day`, '"')
      OR CONTAINS(`updated_day`, '\n')
      OR CONTAINS(`updated_day`, '\r')
      THEN CONCAT('"', REPLACE(`updated_day`, '"', '""'), '"')
      ELSE `updated_day`
    END,
    CASE
      WHEN `flag` IS NULL
      THEN ''
      WHEN CONTAINS(`flag`, ',')
      OR CONTAINS(`flag`, '"')
      OR CONTAINS(`flag`, '\n')
      OR CONTAINS(`flag`, '\r')
      THEN CONCAT('"', REPLACE(`flag`, '"', '""'), '"')
      ELSE `flag`
    END
  ) AS value
FROM `margins_csv.commit`
ORDER BY
  CASE
    WHEN `$source.order` IS NULL OR `$source.order` < CAST('-1' AS BIGINT)
    THEN CAST(0 AS BIGINT)
    WHEN `$source.order` > CAST(60 AS BIGINT)
    THEN CAST(9079256848778919936 AS BIGINT)
    ELSE SHIFTLEFT(`$source.order` + CAST(2 AS BIGINT), 57) + CASE
      WHEN `$source.row` IS NULL OR `$source.row` < CAST(0 AS BIGINT)
      THEN CAST(0 AS BIGINT)
      WHEN `$source.row` > CAST(144115188075855869 AS BIGINT)
      THEN CAST(144115188075855871 AS BIGINT)
      ELSE `$source.row` + CAST(1 AS BIGINT)
    END
  END,
  `$source.order`,
  `$source.row`;
