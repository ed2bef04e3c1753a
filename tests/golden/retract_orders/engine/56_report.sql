-- sink report: write csv to ./out/report.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/report.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
    CASE
      WHEN `region` IS NULL
      THEN ''
      WHEN CONTAINS(`region`, ',')
      OR CONTAINS(`region`, '"')
      OR CONTAINS(`region`, '\n')
      OR CONTAINS(`region`, '\r')
      THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
      ELSE `region`
    END,
    CASE
      WHEN `dept` IS NULL
      THEN ''
      WHEN CONTAINS(`dept`, ',')
      OR CONTAINS(`dept`, '"')
      OR CONTAINS(`dept`, '\n')
      OR CONTAINS(`dept`, '\r')
      THEN CONCAT('"', REPLACE(`dept`, '"', '""'), '"')
      ELSE `dept`
    END,
    COALESCE(CAST(`total` AS STRING), ''),
    COALESCE(CAST(`largest` AS STRING), ''),
    COALESCE(CAST(`orders` AS STRING), ''),
    COALESCE(CAST(`rank` AS STRING), ''),
    COALESCE(
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
      END,
      ''
    )
  ) AS value
FROM `report.commit`
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
