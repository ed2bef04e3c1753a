-- sink export: write csv to ./out/{source_file}_export.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py); each line framed with its source file, whose own output file it goes to when the output is assembled (runtime/outputs.py)
INSERT OVERWRITE DIRECTORY './out/_source_file__export.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT(
    CAST(LENGTH(`$source.file`) AS STRING),
    ':',
    `$source.file`,
    CAST(LENGTH(`$line`) AS STRING),
    ':',
    `$line`
  ) AS value
FROM (
  SELECT
    *,
    CONCAT_WS(
      ',',
      CASE
        WHEN `sale_id` IS NULL
        THEN ''
        WHEN CONTAINS(`sale_id`, ',')
        OR CONTAINS(`sale_id`, '"')
        OR CONTAINS(`sale_id`, '\n')
        OR CONTAINS(`sale_id`, '\r')
        THEN CONCAT('"', REPLACE(`sale_id`, '"', '""'), '"')
        ELSE `sale_id`
      END,
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
      CASE
        WHEN `unit_price` IS NULL
        THEN ''
        WHEN CONTAINS(`unit_price`, ',')
        OR CONTAINS(`unit_price`, '"')
        OR CONTAINS(`unit_price`, '\n')
        OR CONTAINS(`unit_price`, '\r')
        THEN CONCAT('"', REPLACE(`unit_price`, '"', '""'), '"')
        ELSE `unit_price`
      END,
      COALESCE(CXL_FLOAT_TEXT(`total`), '')
    ) AS `$line`
  FROM `export.rows`
) AS lines
ORDER BY
  `lines`.`$source.file` NULLS LAST,
  `lines`.`sku` ASC NULLS LAST,
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
