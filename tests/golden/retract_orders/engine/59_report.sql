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
    COALESCE(CXL_FLOAT_TEXT(`region_total`), '')
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
