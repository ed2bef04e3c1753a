-- DLQ: write ./out/dlq.csv with its header line; one record layout (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(',', `$fields`, `sale_id`, `sku`, `qty`, `unit_price`) AS value
FROM (
  SELECT
    '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
    'sale_id' AS `sale_id`,
    'sku' AS `sku`,
    'qty' AS `qty`,
    'unit_price' AS `unit_price`,
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
      WHEN `sale_id` IS NULL
      THEN ''
      WHEN CONTAINS(`sale_id`, ',')
      OR CONTAINS(`sale_id`, '"')
      OR CONTAINS(`sale_id`, '\n')
      OR CONTAINS(`sale_id`, '\r')
      THEN CONCAT('"', REPLACE(`sale_id`, '"', '""'), '"')
      ELSE `sale_id`
    END AS `sale_id`,
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
      WHEN `unit_price` IS NULL
      THEN ''
      WHEN CONTAINS(`unit_price`, ',')
      OR CONTAINS(`unit_price`, '"')
      OR CONTAINS(`unit_price`, '\n')
      OR CONTAINS(`unit_price`, '\r')
      THEN CONCAT('"', REPLACE(`unit_price`, '"', '""'), '"')
      ELSE `unit_price`
    END AS `unit_price`,
    FALSE AS `$header`,
    `$layout`,
    `$source.order`,
    `_cxl_dlq_source_row`
  FROM `$pipeline.dlq`
) AS lines
ORDER BY
  `$header` DESC,
  `$source.order`,
  `_cxl_dlq_source_row`;
