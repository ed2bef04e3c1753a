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
        COALESCE(CXL_FLOAT_TEXT(`bonus_pct`), ''),
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
        COALESCE(CXL_FLOAT_TEXT(`bonus`), ''),
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
