-- sink big: write csv to ./out/big.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/big.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
    CASE
      WHEN `order_id` IS NULL
      THEN ''
      WHEN CONTAINS(`order_id`, ',')
      OR CONTAINS(`order_id`, '"')
      OR CONTAINS(`order_id`, '\n')
      OR CONTAINS(`order_id`, '\r')
      THEN CONCAT('"', REPLACE(`order_id`, '"', '""'), '"')
      ELSE `order_id`
    END,
    COALESCE(CAST(`line` AS STRING), ''),
    CASE
      WHEN `customer` IS NULL
      THEN ''
      WHEN CONTAINS(`customer`, ',')
      OR CONTAINS(`customer`, '"')
      OR CONTAINS(`customer`, '\n')
      OR CONTAINS(`customer`, '\r')
      THEN CONCAT('"', REPLACE(`customer`, '"', '""'), '"')
      ELSE `customer`
    END,
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
    COALESCE(CAST(`cents` AS STRING), '')
  ) AS value
FROM `big.commit`
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
