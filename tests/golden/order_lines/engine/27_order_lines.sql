-- sink order_lines: write csv to ./out/order_lines.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/order_lines.csv.clinker-staging' USING text
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
      WHEN `items` IS NULL
      THEN ''
      WHEN CONTAINS(`items`, ',')
      OR CONTAINS(`items`, '"')
      OR CONTAINS(`items`, '\n')
      OR CONTAINS(`items`, '\r')
      THEN CONCAT('"', REPLACE(`items`, '"', '""'), '"')
      ELSE `items`
    END,
    COALESCE(CAST(`line_count` AS STRING), ''),
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
    COALESCE(CAST(`qty` AS STRING), ''),
    COALESCE(CAST(`sku_number` AS STRING), '')
  ) AS value
FROM `order_lines.rows`
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
  `$source.row`,
  `$fan`;
