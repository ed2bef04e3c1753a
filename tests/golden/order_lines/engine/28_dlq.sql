-- DLQ: write ./out/dlq.csv with its header line; columns as the entries' layouts say (all one layout: its schema order, else the sorted union), decided by a window in the one partition the lines are sorted in: no extra job (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CASE
    WHEN `$file_layout` = CAST(0 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `customer`, `items`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `customer`, `items`, `line_count`, `sku`, `qty`)
    ELSE CONCAT_WS(',', `$fields`, `customer`, `items`, `line_count`, `order_id`, `qty`, `sku`)
  END AS value
FROM (
  SELECT
    *,
    CASE
      WHEN MIN(`$layout`) OVER () = MAX(`$layout`) OVER ()
      THEN MIN(`$layout`) OVER ()
    END AS `$file_layout`
  FROM (
    SELECT
      '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
      'customer' AS `customer`,
      'items' AS `items`,
      'line_count' AS `line_count`,
      'order_id' AS `order_id`,
      'qty' AS `qty`,
      'sku' AS `sku`,
      TRUE AS `$header`,
      NULL AS `$layout`,
      NULL AS `$source.order`,
      NULL AS `_cxl_dlq_source_row`
    UNION ALL
    SELECT
      CONCAT_WS(
        ',',
        COALESCE(UUID(), ''),
        COALESCE(DATE_FORMAT(CURRENT_TIMESTAMP(), 'yyyy-MM-dd\'T\'HH:mm:ss\'Z\''), ''),
        CASE
          WHEN `_cxl_dlq_source_file` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_source_file`, ',')
          OR CONTAINS(`_cxl_dlq_source_file`, '"')
          OR CONTAINS(`_cxl_dlq_source_file`, '\n')
          OR CONTAINS(`_cxl_dlq_source_file`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_source_file`, '"', '""'), '"')
          ELSE `_cxl_dlq_source_file`
        END,
        CASE
          WHEN `_cxl_dlq_source_name` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_source_name`, ',')
          OR CONTAINS(`_cxl_dlq_source_name`, '"')
          OR CONTAINS(`_cxl_dlq_source_name`, '\n')
          OR CONTAINS(`_cxl_dlq_source_name`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_source_name`, '"', '""'), '"')
          ELSE `_cxl_dlq_source_name`
        END,
        COALESCE(
          CAST(CASE
            WHEN `$source.order` = CAST('-1' AS BIGINT)
            THEN CAST(0 AS BIGINT)
            ELSE `_cxl_dlq_source_row`
          END AS STRING),
          ''
        ),
        CASE
          WHEN `_cxl_dlq_triggering_field` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_triggering_field`, ',')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '"')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '\n')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_triggering_field`, '"', '""'), '"')
          ELSE `_cxl_dlq_triggering_field`
        END,
        CASE
          WHEN `_cxl_dlq_triggering_value` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_triggering_value`, ',')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '"')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '\n')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_triggering_value`, '"', '""'), '"')
          ELSE `_cxl_dlq_triggering_value`
        END,
        CASE
          WHEN `_cxl_dlq_error_category` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_error_category`, ',')
          OR CONTAINS(`_cxl_dlq_error_category`, '"')
          OR CONTAINS(`_cxl_dlq_error_category`, '\n')
          OR CONTAINS(`_cxl_dlq_error_category`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_error_category`, '"', '""'), '"')
          ELSE `_cxl_dlq_error_category`
        END,
        CASE
          WHEN `_cxl_dlq_error_detail` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_error_detail`, ',')
          OR CONTAINS(`_cxl_dlq_error_detail`, '"')
          OR CONTAINS(`_cxl_dlq_error_detail`, '\n')
          OR CONTAINS(`_cxl_dlq_error_detail`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_error_detail`, '"', '""'), '"')
          ELSE `_cxl_dlq_error_detail`
        END,
        CASE
          WHEN `_cxl_dlq_stage` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_stage`, ',')
          OR CONTAINS(`_cxl_dlq_stage`, '"')
          OR CONTAINS(`_cxl_dlq_stage`, '\n')
          OR CONTAINS(`_cxl_dlq_stage`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_stage`, '"', '""'), '"')
          ELSE `_cxl_dlq_stage`
        END,
        CASE
          WHEN `_cxl_dlq_route` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_route`, ',')
          OR CONTAINS(`_cxl_dlq_route`, '"')
          OR CONTAINS(`_cxl_dlq_route`, '\n')
          OR CONTAINS(`_cxl_dlq_route`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_route`, '"', '""'), '"')
          ELSE `_cxl_dlq_route`
        END,
        COALESCE(CAST(`_cxl_dlq_trigger` AS STRING), '')
      ) AS `$fields`,
      CASE
        WHEN `customer` IS NULL
        THEN ''
        WHEN CONTAINS(`customer`, ',')
        OR CONTAINS(`customer`, '"')
        OR CONTAINS(`customer`, '\n')
        OR CONTAINS(`customer`, '\r')
        THEN CONCAT('"', REPLACE(`customer`, '"', '""'), '"')
        ELSE `customer`
      END AS `customer`,
      CASE
        WHEN `items` IS NULL
        THEN ''
        WHEN CONTAINS(`items`, ',')
        OR CONTAINS(`items`, '"')
        OR CONTAINS(`items`, '\n')
        OR CONTAINS(`items`, '\r')
        THEN CONCAT('"', REPLACE(`items`, '"', '""'), '"')
        ELSE `items`
      END AS `items`,
      CASE
        WHEN `line_count` IS NULL
        THEN ''
        WHEN CONTAINS(`line_count`, ',')
        OR CONTAINS(`line_count`, '"')
        OR CONTAINS(`line_count`, '\n')
        OR CONTAINS(`line_count`, '\r')
        THEN CONCAT('"', REPLACE(`line_count`, '"', '""'), '"')
        ELSE `line_count`
      END AS `line_count`,
      CASE
        WHEN `order_id` IS NULL
        THEN ''
        WHEN CONTAINS(`order_id`, ',')
        OR CONTAINS(`order_id`, '"')
        OR CONTAINS(`order_id`, '\n')
        OR CONTAINS(`order_id`, '\r')
        THEN CONCAT('"', REPLACE(`order_id`, '"', '""'), '"')
        ELSE `order_id`
      END AS `order_id`,
      CASE
        WHEN `qty` IS NULL
        THEN ''
        WHEN CONTAINS(`qty`, ',')
        OR CONTAINS(`qty`, '"')
        OR CONTAINS(`qty`, '\n')
        OR CONTAINS(`qty`, '\r')
        THEN CONCAT('"', REPLACE(`qty`, '"', '""'), '"')
        ELSE `qty`
      END AS `qty`,
      CASE
        WHEN `sku` IS NULL
        THEN ''
        WHEN CONTAINS(`sku`, ',')
        OR CONTAINS(`sku`, '"')
        OR CONTAINS(`sku`, '\n')
        OR CONTAINS(`sku`, '\r')
        THEN CONCAT('"', REPLACE(`sku`, '"', '""'), '"')
        ELSE `sku`
      END AS `sku`,
      FALSE AS `$header`,
      `$layout`,
      `$source.order`,
      `_cxl_dlq_source_row`
    FROM `$pipeline.dlq`
  ) AS cells
) AS lines
ORDER BY
  `$header` DESC,
  `$source.order`,
  `_cxl_dlq_source_row`;
