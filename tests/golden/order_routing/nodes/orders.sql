-- source orders: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   order_id <- csv column 'order_id' of ./data/orders.csv, as string
--   line <- csv column 'line' of ./data/orders.csv, as int
--   customer <- csv column 'customer' of ./data/orders.csv, as string
--   amount <- csv column 'amount' of ./data/orders.csv, as string
--   region <- csv column 'region' of ./data/orders.csv, as string
--   $ck.order_id <- correlation key: a copy of 'order_id' taken at ingest

-- step 10
-- source orders: every row typed, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `orders.carry` AS
SELECT
  COALESCE(`order_id`, '') AS `order_id`,
  `$shared.0` AS `line`,
  COALESCE(`customer`, '') AS `customer`,
  COALESCE(`amount`, '') AS `amount`,
  COALESCE(`region`, '') AS `region`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  COALESCE(`order_id`, '') AS `$ck.order_id`,
  NOT COALESCE((
    `line` IS NULL OR `line` = '' OR `$shared.0` IS NULL
  ), FALSE) AS `$live`,
  CASE
    WHEN COALESCE((
      `line` IS NULL OR `line` = '' OR `$shared.0` IS NULL
    ), FALSE)
    THEN STRUCT(
      `$source.file` AS `_cxl_dlq_source_file`,
      `$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN COALESCE((
          `line` IS NULL OR `line` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN 'line'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN COALESCE((
          `line` IS NULL OR `line` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN COALESCE(`line`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN COALESCE((
          `line` IS NULL OR `line` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN CONCAT(
          '[E126] source="orders" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=2 field="line" declared_type=Int: value "',
          COALESCE(`line`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'orders' AS `$node`,
      CAST(MAP(
        'order_id',
        `order_id`,
        'line',
        `line`,
        'customer',
        `customer`,
        'amount',
        `amount`,
        'region',
        `region`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM (
  SELECT
    *,
    CASE
      WHEN COALESCE(`line` RLIKE '^[+-]?[0-9]+\\z', FALSE)
      THEN TRY_CAST(`line` AS BIGINT)
    END AS `$shared.0`
  FROM `orders.rows`
) AS `input`;
