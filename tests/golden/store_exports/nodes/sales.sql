-- source sales: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sale_id <- csv column 'sale_id' of ./data/store_*.csv, as string
--   sku <- csv column 'sku' of ./data/store_*.csv, as string
--   qty <- csv column 'qty' of ./data/store_*.csv, as int
--   unit_price <- csv column 'unit_price' of ./data/store_*.csv, as string

-- step 10
-- source sales: every row typed, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `sales.carry` AS
SELECT
  COALESCE(`sale_id`, '') AS `sale_id`,
  COALESCE(`sku`, '') AS `sku`,
  `$shared.0` AS `qty`,
  COALESCE(`unit_price`, '') AS `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT COALESCE((
    `qty` IS NULL OR `qty` = '' OR `$shared.0` IS NULL
  ), FALSE) AS `$live`,
  CASE
    WHEN COALESCE((
      `qty` IS NULL OR `qty` = '' OR `$shared.0` IS NULL
    ), FALSE)
    THEN STRUCT(
      `$source.file` AS `_cxl_dlq_source_file`,
      `$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN COALESCE((
          `qty` IS NULL OR `qty` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN 'qty'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN COALESCE((
          `qty` IS NULL OR `qty` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN COALESCE(`qty`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN COALESCE((
          `qty` IS NULL OR `qty` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN CONCAT(
          '[E126] source="sales" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=3 field="qty" declared_type=Int: value "',
          COALESCE(`qty`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'sales' AS `$node`,
      CAST(MAP('sale_id', `sale_id`, 'sku', `sku`, 'qty', `qty`, 'unit_price', `unit_price`) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM (
  SELECT
    *,
    CASE
      WHEN COALESCE(`qty` RLIKE '^[+-]?[0-9]+\\z', FALSE)
      THEN TRY_CAST(`qty` AS BIGINT)
    END AS `$shared.0`
  FROM `sales.rows`
) AS `input`;
