-- source employees: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `employees.carry` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT (
    COALESCE((
      `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
    ), FALSE)
    OR COALESCE(
      (
        `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
      ),
      FALSE
    )
  ) AS `$live`,
  CASE
    WHEN (
      `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
    )
    OR (
      `$raw`.`hired` IS NULL
      OR `$raw`.`hired` = ''
      OR CASE
        WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
      END IS NULL
    )
    OR (
      NOT (
        `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
      )
      AND CASE
        WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
        AND NOT (
          ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
          OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
        )
        THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
      END IS NULL
    )
    OR (
      `$raw`.`active` IS NULL
      OR `$raw`.`active` = ''
      OR CASE
        WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
        THEN TRUE
        WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
        THEN FALSE
      END IS NULL
    )
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'id'
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN 'hired'
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN 'bonus_pct'
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN 'active'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`id`, '')
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN COALESCE(`$raw`.`hired`, '')
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN COALESCE(`$raw`.`bonus_pct`, '')
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN COALESCE(`$raw`.`active`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=1 field="id" declared_type=Int: value "',
          COALESCE(`$raw`.`id`, ''),
          '" is not a valid Int'
        )
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=5 field="hired" declared_type=Date: value "',
          COALESCE(`$raw`.`hired`, ''),
          '" is not a valid Date'
        )
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=6 field="bonus_pct" declared_type=Float: value "',
          COALESCE(`$raw`.`bonus_pct`, ''),
          '" is not a valid Float'
        )
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=7 field="active" declared_type=Bool: value "',
          COALESCE(`$raw`.`active`, ''),
          '" is not a valid Bool'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'employees' AS `$node`,
      CAST(MAP(
        'id',
        `$raw`.`id`,
        'name',
        `$raw`.`name`,
        'dept',
        `$raw`.`dept`,
        'salary',
        `$raw`.`salary`,
        'hired',
        `$raw`.`hired`,
        'bonus_pct',
        `$raw`.`bonus_pct`,
        'active',
        `$raw`.`active`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `employees.typed`;
