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
    COALESCE(CXL_FLOAT_TEXT(`price`), ''),
    COALESCE(CXL_FLOAT_TEXT(`cost`), ''),
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
    COALESCE(CXL_FLOAT_TEXT(`margin_pct`), ''),
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
