-- DLQ: write ./out/dlq.csv with its header line; one record layout (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(',', `$fields`, `id`, `name`, `dept`, `salary`, `hired`, `bonus_pct`, `active`) AS value
FROM (
  SELECT
    '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
    'id' AS `id`,
    'name' AS `name`,
    'dept' AS `dept`,
    'salary' AS `salary`,
    'hired' AS `hired`,
    'bonus_pct' AS `bonus_pct`,
    'active' AS `active`,
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
      WHEN `id` IS NULL
      THEN ''
      WHEN CONTAINS(`id`, ',')
      OR CONTAINS(`id`, '"')
      OR CONTAINS(`id`, '\n')
      OR CONTAINS(`id`, '\r')
      THEN CONCAT('"', REPLACE(`id`, '"', '""'), '"')
      ELSE `id`
    END AS `id`,
    CASE
      WHEN `name` IS NULL
      THEN ''
      WHEN CONTAINS(`name`, ',')
      OR CONTAINS(`name`, '"')
      OR CONTAINS(`name`, '\n')
      OR CONTAINS(`name`, '\r')
      THEN CONCAT('"', REPLACE(`name`, '"', '""'), '"')
      ELSE `name`
    END AS `name`,
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
      WHEN `salary` IS NULL
      THEN ''
      WHEN CONTAINS(`salary`, ',')
      OR CONTAINS(`salary`, '"')
      OR CONTAINS(`salary`, '\n')
      OR CONTAINS(`salary`, '\r')
      THEN CONCAT('"', REPLACE(`salary`, '"', '""'), '"')
      ELSE `salary`
    END AS `salary`,
    CASE
      WHEN `hired` IS NULL
      THEN ''
      WHEN CONTAINS(`hired`, ',')
      OR CONTAINS(`hired`, '"')
      OR CONTAINS(`hired`, '\n')
      OR CONTAINS(`hired`, '\r')
      THEN CONCAT('"', REPLACE(`hired`, '"', '""'), '"')
      ELSE `hired`
    END AS `hired`,
    CASE
      WHEN `bonus_pct` IS NULL
      THEN ''
      WHEN CONTAINS(`bonus_pct`, ',')
      OR CONTAINS(`bonus_pct`, '"')
      OR CONTAINS(`bonus_pct`, '\n')
      OR CONTAINS(`bonus_pct`, '\r')
      THEN CONCAT('"', REPLACE(`bonus_pct`, '"', '""'), '"')
      ELSE `bonus_pct`
    END AS `bonus_pct`,
    CASE
      WHEN `active` IS NULL
      THEN ''
      WHEN CONTAINS(`active`, ',')
      OR CONTAINS(`active`, '"')
      OR CONTAINS(`active`, '\n')
      OR CONTAINS(`active`, '\r')
      THEN CONCAT('"', REPLACE(`active`, '"', '""'), '"')
      ELSE `active`
    END AS `active`,
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
