-- DLQ: write ./out/dlq.csv with its header line; columns as the entries' layouts say (all one layout: its schema order, else the sorted union), decided by a window in the one partition the lines are sorted in: no extra job (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CASE
    WHEN `$file_layout` = CAST(0 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `region`, `dept`, `amount`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `region`, `dept`, `amount`, `$ck.order_id`)
    WHEN `$file_layout` = CAST(2 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `region`, `dept`, `total`, `largest`, `orders`, `$ck.aggregate.dept_totals`)
    WHEN `$file_layout` = CAST(3 AS BIGINT)
    THEN CONCAT_WS(
      ',',
      `$fields`,
      `region`,
      `dept`,
      `total`,
      `largest`,
      `orders`,
      `rank`,
      `region_total`,
      `$ck.aggregate.dept_totals`
    )
    ELSE CONCAT_WS(
      ',',
      `$fields`,
      `$ck.aggregate.dept_totals`,
      `$ck.order_id`,
      `amount`,
      `dept`,
      `largest`,
      `line`,
      `order_id`,
      `orders`,
      `rank`,
      `region`,
      `region_total`,
      `total`
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
      '$ck.aggregate.dept_totals' AS `$ck.aggregate.dept_totals`,
      '$ck.order_id' AS `$ck.order_id`,
      'amount' AS `amount`,
      'dept' AS `dept`,
      'largest' AS `largest`,
      'line' AS `line`,
      'order_id' AS `order_id`,
      'orders' AS `orders`,
      'rank' AS `rank`,
      'region' AS `region`,
      'region_total' AS `region_total`,
      'total' AS `total`,
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
        WHEN `$ck.aggregate.dept_totals` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.aggregate.dept_totals`, ',')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '"')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '\n')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.aggregate.dept_totals`, '"', '""'), '"')
        ELSE `$ck.aggregate.dept_totals`
      END AS `$ck.aggregate.dept_totals`,
      CASE
        WHEN `$ck.order_id` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.order_id`, ',')
        OR CONTAINS(`$ck.order_id`, '"')
        OR CONTAINS(`$ck.order_id`, '\n')
        OR CONTAINS(`$ck.order_id`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.order_id`, '"', '""'), '"')
        ELSE `$ck.order_id`
      END AS `$ck.order_id`,
      CASE
        WHEN `amount` IS NULL
        THEN ''
        WHEN CONTAINS(`amount`, ',')
        OR CONTAINS(`amount`, '"')
        OR CONTAINS(`amount`, '\n')
        OR CONTAINS(`amount`, '\r')
        THEN CONCAT('"', REPLACE(`amount`, '"', '""'), '"')
        ELSE `amount`
      END AS `amount`,
      CASE
        WHEN `dept` IS NULL
        THEN ''
        WHEN CONTAINS(`dept`, ',')
        OR CONTAINS(`dept`, '"')
        OR CONTAINS(`dept`, '\n')
        OR CONTAINS(`dept`, '\r')
        THEN CONCAT('"', REPLACE(`dept`, '"', '""'), '"')
        ELSE `dept`
      END AS `dept`,
      CASE
        WHEN `largest` IS NULL
        THEN ''
        WHEN CONTAINS(`largest`, ',')
        OR CONTAINS(`largest`, '"')
        OR CONTAINS(`largest`, '\n')
        OR CONTAINS(`largest`, '\r')
        THEN CONCAT('"', REPLACE(`largest`, '"', '""'), '"')
        ELSE `largest`
      END AS `largest`,
      CASE
        WHEN `line` IS NULL
        THEN ''
        WHEN CONTAINS(`line`, ',')
        OR CONTAINS(`line`, '"')
        OR CONTAINS(`line`, '\n')
        OR CONTAINS(`line`, '\r')
        THEN CONCAT('"', REPLACE(`line`, '"', '""'), '"')
        ELSE `line`
      END AS `line`,
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
        WHEN `orders` IS NULL
        THEN ''
        WHEN CONTAINS(`orders`, ',')
        OR CONTAINS(`orders`, '"')
        OR CONTAINS(`orders`, '\n')
        OR CONTAINS(`orders`, '\r')
        THEN CONCAT('"', REPLACE(`orders`, '"', '""'), '"')
        ELSE `orders`
      END AS `orders`,
      CASE
        WHEN `rank` IS NULL
        THEN ''
        WHEN CONTAINS(`rank`, ',')
        OR CONTAINS(`rank`, '"')
        OR CONTAINS(`rank`, '\n')
        OR CONTAINS(`rank`, '\r')
        THEN CONCAT('"', REPLACE(`rank`, '"', '""'), '"')
        ELSE `rank`
      END AS `rank`,
      CASE
        WHEN `region` IS NULL
        THEN ''
        WHEN CONTAINS(`region`, ',')
        OR CONTAINS(`region`, '"')
        OR CONTAINS(`region`, '\n')
        OR CONTAINS(`region`, '\r')
        THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
        ELSE `region`
      END AS `region`,
      CASE
        WHEN `region_total` IS NULL
        THEN ''
        WHEN CONTAINS(`region_total`, ',')
        OR CONTAINS(`region_total`, '"')
        OR CONTAINS(`region_total`, '\n')
        OR CONTAINS(`region_total`, '\r')
        THEN CONCAT('"', REPLACE(`region_total`, '"', '""'), '"')
        ELSE `region_total`
      END AS `region_total`,
      CASE
        WHEN `total` IS NULL
        THEN ''
        WHEN CONTAINS(`total`, ',')
        OR CONTAINS(`total`, '"')
        OR CONTAINS(`total`, '\n')
        OR CONTAINS(`total`, '\r')
        THEN CONCAT('"', REPLACE(`total`, '"', '""'), '"')
        ELSE `total`
      END AS `total`,
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
