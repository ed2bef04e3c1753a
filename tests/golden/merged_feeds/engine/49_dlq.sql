-- DLQ: write ./out/dlq.csv with its header line; columns as the entries' layouts say (all one layout: its schema order, else the sorted union), decided by a window in the one partition the lines are sorted in: no extra job (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CASE
    WHEN `$file_layout` = CAST(0 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `sku`, `price`, `cost`, `updated`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `sku`, `price`, `cost`, `updated`, `$ck.sku`)
    WHEN `$file_layout` = CAST(2 AS BIGINT)
    THEN CONCAT_WS(
      ',',
      `$fields`,
      `sku`,
      `price`,
      `cost`,
      `updated`,
      `store`,
      `margin_pct`,
      `updated_day`,
      `flag`,
      `$ck.sku`
    )
    ELSE CONCAT_WS(
      ',',
      `$fields`,
      `$ck.sku`,
      `cost`,
      `flag`,
      `margin_pct`,
      `price`,
      `sku`,
      `store`,
      `updated`,
      `updated_day`
    )
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
      '$ck.sku' AS `$ck.sku`,
      'cost' AS `cost`,
      'flag' AS `flag`,
      'margin_pct' AS `margin_pct`,
      'price' AS `price`,
      'sku' AS `sku`,
      'store' AS `store`,
      'updated' AS `updated`,
      'updated_day' AS `updated_day`,
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
        WHEN `$ck.sku` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.sku`, ',')
        OR CONTAINS(`$ck.sku`, '"')
        OR CONTAINS(`$ck.sku`, '\n')
        OR CONTAINS(`$ck.sku`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.sku`, '"', '""'), '"')
        ELSE `$ck.sku`
      END AS `$ck.sku`,
      CASE
        WHEN `cost` IS NULL
        THEN ''
        WHEN CONTAINS(`cost`, ',')
        OR CONTAINS(`cost`, '"')
        OR CONTAINS(`cost`, '\n')
        OR CONTAINS(`cost`, '\r')
        THEN CONCAT('"', REPLACE(`cost`, '"', '""'), '"')
        ELSE `cost`
      END AS `cost`,
      CASE
        WHEN `flag` IS NULL
        THEN ''
        WHEN CONTAINS(`flag`, ',')
        OR CONTAINS(`flag`, '"')
        OR CONTAINS(`flag`, '\n')
        OR CONTAINS(`flag`, '\r')
        THEN CONCAT('"', REPLACE(`flag`, '"', '""'), '"')
        ELSE `flag`
      END AS `flag`,
      CASE
        WHEN `margin_pct` IS NULL
        THEN ''
        WHEN CONTAINS(`margin_pct`, ',')
        OR CONTAINS(`margin_pct`, '"')
        OR CONTAINS(`margin_pct`, '\n')
        OR CONTAINS(`margin_pct`, '\r')
        THEN CONCAT('"', REPLACE(`margin_pct`, '"', '""'), '"')
        ELSE `margin_pct`
      END AS `margin_pct`,
      CASE
        WHEN `price` IS NULL
        THEN ''
        WHEN CONTAINS(`price`, ',')
        OR CONTAINS(`price`, '"')
        OR CONTAINS(`price`, '\n')
        OR CONTAINS(`price`, '\r')
        THEN CONCAT('"', REPLACE(`price`, '"', '""'), '"')
        ELSE `price`
      END AS `price`,
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
        WHEN `store` IS NULL
        THEN ''
        WHEN CONTAINS(`store`, ',')
        OR CONTAINS(`store`, '"')
        OR CONTAINS(`store`, '\n')
        OR CONTAINS(`store`, '\r')
        THEN CONCAT('"', REPLACE(`store`, '"', '""'), '"')
        ELSE `store`
      END AS `store`,
      CASE
        WHEN `updated` IS NULL
        THEN ''
        WHEN CONTAINS(`updated`, ',')
        OR CONTAINS(`updated`, '"')
        OR CONTAINS(`updated`, '\n')
        OR CONTAINS(`updated`, '\r')
        THEN CONCAT('"', REPLACE(`updated`, '"', '""'), '"')
        ELSE `updated`
      END AS `updated`,
      CASE
        WHEN `updated_day` IS NULL
        THEN ''
        WHEN CONTAINS(`updated_day`, ',')
        OR CONTAINS(`updated_day`, '"')
        OR CONTAINS(`updated_day`, '\n')
        OR CONTAINS(`updated_day`, '\r')
        THEN CONCAT('"', REPLACE(`updated_day`, '"', '""'), '"')
        ELSE `updated_day`
      END AS `updated_day`,
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
