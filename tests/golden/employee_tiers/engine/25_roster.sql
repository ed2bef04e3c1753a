-- sink roster: write csv to ./out/roster.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py); before its rows, those that failed in enrich.failed, split off when the output is assembled (codegen/split_write.py)
INSERT OVERWRITE DIRECTORY './out/roster.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  value
FROM (
  SELECT
    CASE
      WHEN `$live`
      THEN CONCAT_WS(
        ',',
        COALESCE(CAST(`id` AS STRING), ''),
        CASE
          WHEN `name` IS NULL
          THEN ''
          WHEN CONTAINS(`name`, ',')
          OR CONTAINS(`name`, '"')
          OR CONTAINS(`name`, '\n')
          OR CONTAINS(`name`, '\r')
          THEN CONCAT('"', REPLACE(`name`, '"', '""'), '"')
          ELSE `name`
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
        COALESCE(CAST(`salary` AS STRING), ''),
        COALESCE(CAST(`hired` AS STRING), ''),
        COALESCE(
          CASE
            WHEN `bonus_pct` IS NULL
            THEN CAST(NULL AS STRING)
            WHEN ISNAN(`bonus_pct`)
            THEN 'NaN'
            WHEN `bonus_pct` = CAST('Infinity' AS DOUBLE)
            THEN 'inf'
            WHEN `bonus_pct` = CAST('-Infinity' AS DOUBLE)
            THEN '-inf'
            WHEN LOCATE('E', CAST(`bonus_pct` AS STRING)) = 0
            THEN CASE
              WHEN CAST(`bonus_pct` AS STRING) LIKE '%.0'
              THEN SUBSTRING(CAST(`bonus_pct` AS STRING), 1, LENGTH(CAST(`bonus_pct` AS STRING)) - 2)
              ELSE CAST(`bonus_pct` AS STRING)
            END
            ELSE COALESCE(
              REGEXP_REPLACE(
                REGEXP_REPLACE(
                  CASE
                    WHEN ABS(`bonus_pct`) >= CAST('1e+18' AS DOUBLE)
                    THEN CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                    WHEN ABS(`bonus_pct`) >= CAST('0.01' AS DOUBLE)
                    THEN CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                    ELSE CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 37)) AS STRING)
                  END,
                  '(\\.[0-9]*?)0+$',
                  '$1'
                ),
                '\\.$',
                ''
              ),
              CAST(`bonus_pct` AS STRING)
            )
          END,
          ''
        ),
        COALESCE(CAST(`active` AS STRING), ''),
        CASE
          WHEN `tier` IS NULL
          THEN ''
          WHEN CONTAINS(`tier`, ',')
          OR CONTAINS(`tier`, '"')
          OR CONTAINS(`tier`, '\n')
          OR CONTAINS(`tier`, '\r')
          THEN CONCAT('"', REPLACE(`tier`, '"', '""'), '"')
          ELSE `tier`
        END,
        COALESCE(
          CASE
            WHEN `bonus` IS NULL
            THEN CAST(NULL AS STRING)
            WHEN ISNAN(`bonus`)
            THEN 'NaN'
            WHEN `bonus` = CAST('Infinity' AS DOUBLE)
            THEN 'inf'
            WHEN `bonus` = CAST('-Infinity' AS DOUBLE)
            THEN '-inf'
            WHEN LOCATE('E', CAST(`bonus` AS STRING)) = 0
            THEN CASE
              WHEN CAST(`bonus` AS STRING) LIKE '%.0'
              THEN SUBSTRING(CAST(`bonus` AS STRING), 1, LENGTH(CAST(`bonus` AS STRING)) - 2)
              ELSE CAST(`bonus` AS STRING)
            END
            ELSE COALESCE(
              REGEXP_REPLACE(
                REGEXP_REPLACE(
                  CASE
                    WHEN ABS(`bonus`) >= CAST('1e+18' AS DOUBLE)
                    THEN CAST(TRY_CAST(CAST(`bonus` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                    WHEN ABS(`bonus`) >= CAST('0.01' AS DOUBLE)
                    THEN CAST(TRY_CAST(CAST(`bonus` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                    ELSE CAST(TRY_CAST(CAST(`bonus` AS STRING) AS DECIMAL(38, 37)) AS STRING)
                  END,
                  '(\\.[0-9]*?)0+$',
                  '$1'
                ),
                '\\.$',
                ''
              ),
              CAST(`bonus` AS STRING)
            )
          END,
          ''
        ),
        COALESCE(CAST(`hired_year` AS STRING), ''),
        CASE
          WHEN `team` IS NULL
          THEN ''
          WHEN CONTAINS(`team`, ',')
          OR CONTAINS(`team`, '"')
          OR CONTAINS(`team`, '\n')
          OR CONTAINS(`team`, '\r')
          THEN CONCAT('"', REPLACE(`team`, '"', '""'), '"')
          ELSE `team`
        END
      )
      ELSE TO_JSON(`$dlq`)
    END AS `value`,
    CASE WHEN `$live` THEN 2 ELSE 0 END AS `$part`,
    `$source.order` AS `$k0`,
    `$source.row` AS `$k1`
  FROM `roster.split`
  UNION ALL
  SELECT
    '-- clinker-sql: the failing rows end here; the output starts below --' AS `value`,
    1 AS `$part`,
    NULL AS `$k0`,
    NULL AS `$k1`
) AS w
ORDER BY
  CASE
    WHEN `$part` IS NULL OR `$part` < CAST(0 AS BIGINT)
    THEN CAST(0 AS BIGINT)
    WHEN `$part` > CAST(5 AS BIGINT)
    THEN CAST(8070450532247928832 AS BIGINT)
    ELSE SHIFTLEFT(`$part` + CAST(1 AS BIGINT), 60) + CASE
      WHEN `$k0` IS NULL OR `$k0` < CAST('-1' AS BIGINT)
      THEN CAST(0 AS BIGINT)
      WHEN `$k0` > CAST(28 AS BIGINT)
      THEN CAST(1116892707587883008 AS BIGINT)
      ELSE SHIFTLEFT(`$k0` + CAST(2 AS BIGINT), 55) + CASE
        WHEN `$k1` IS NULL OR `$k1` < CAST(0 AS BIGINT)
        THEN CAST(0 AS BIGINT)
        WHEN `$k1` > CAST(36028797018963965 AS BIGINT)
        THEN CAST(36028797018963967 AS BIGINT)
        ELSE `$k1` + CAST(1 AS BIGINT)
      END
    END
  END,
  `$part`,
  `$k0`,
  `$k1`;
