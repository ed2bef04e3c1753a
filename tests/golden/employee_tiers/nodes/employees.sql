-- source employees: the statements that hold its logic (step 10 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   id <- csv column 'id' of ./data/employees.csv, as int
--   name <- csv column 'name' of ./data/employees.csv, as string
--   dept <- csv column 'dept' of ./data/employees.csv, as string
--   salary <- csv column 'salary' of ./data/employees.csv, as string
--   hired <- csv column 'hired' of ./data/employees.csv, as date
--   bonus_pct <- csv column 'bonus_pct' of ./data/employees.csv, as float
--   active <- csv column 'active' of ./data/employees.csv, as bool

-- step 10
-- source employees: every row typed, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `employees.carry` AS
SELECT
  `$shared.0` AS `id`,
  COALESCE(`name`, '') AS `name`,
  COALESCE(`dept`, '') AS `dept`,
  COALESCE(`salary`, '') AS `salary`,
  CASE
    WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
    WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
    WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
    WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
  END AS `hired`,
  CASE
    WHEN COALESCE(
      (
        COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
        AND NOT (
          ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
          OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
        )
      ),
      FALSE
    )
    THEN TRY_CAST(`bonus_pct` AS DOUBLE)
  END AS `bonus_pct`,
  CASE
    WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
    THEN TRUE
    WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
    THEN FALSE
  END AS `active`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT (
    COALESCE((
      `id` IS NULL OR `id` = '' OR `$shared.0` IS NULL
    ), FALSE)
    OR COALESCE(
      (
        `hired` IS NULL
        OR `hired` = ''
        OR CASE
          WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        NOT (
          `bonus_pct` IS NULL OR `bonus_pct` = ''
        )
        AND CASE
          WHEN COALESCE(
            (
              COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
              AND NOT (
                ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
                OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
              )
            ),
            FALSE
          )
          THEN TRY_CAST(`bonus_pct` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `active` IS NULL
        OR `active` = ''
        OR CASE
          WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
      ),
      FALSE
    )
  ) AS `$live`,
  CASE
    WHEN COALESCE((
      `id` IS NULL OR `id` = '' OR `$shared.0` IS NULL
    ), FALSE)
    OR COALESCE(
      (
        `hired` IS NULL
        OR `hired` = ''
        OR CASE
          WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
          WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        NOT (
          `bonus_pct` IS NULL OR `bonus_pct` = ''
        )
        AND CASE
          WHEN COALESCE(
            (
              COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
              AND NOT (
                ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
                OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
              )
            ),
            FALSE
          )
          THEN TRY_CAST(`bonus_pct` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `active` IS NULL
        OR `active` = ''
        OR CASE
          WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
      ),
      FALSE
    )
    THEN STRUCT(
      `$source.file` AS `_cxl_dlq_source_file`,
      `$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN COALESCE((
          `id` IS NULL OR `id` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN 'id'
        WHEN COALESCE(
          (
            `hired` IS NULL
            OR `hired` = ''
            OR CASE
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
            END IS NULL
          ),
          FALSE
        )
        THEN 'hired'
        WHEN COALESCE(
          (
            NOT (
              `bonus_pct` IS NULL OR `bonus_pct` = ''
            )
            AND CASE
              WHEN COALESCE(
                (
                  COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
                  AND NOT (
                    ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
                    OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
                  )
                ),
                FALSE
              )
              THEN TRY_CAST(`bonus_pct` AS DOUBLE)
            END IS NULL
          ),
          FALSE
        )
        THEN 'bonus_pct'
        WHEN COALESCE(
          (
            `active` IS NULL
            OR `active` = ''
            OR CASE
              WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
              THEN TRUE
              WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
              THEN FALSE
            END IS NULL
          ),
          FALSE
        )
        THEN 'active'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN COALESCE((
          `id` IS NULL OR `id` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN COALESCE(`id`, '')
        WHEN COALESCE(
          (
            `hired` IS NULL
            OR `hired` = ''
            OR CASE
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
            END IS NULL
          ),
          FALSE
        )
        THEN COALESCE(`hired`, '')
        WHEN COALESCE(
          (
            NOT (
              `bonus_pct` IS NULL OR `bonus_pct` = ''
            )
            AND CASE
              WHEN COALESCE(
                (
                  COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
                  AND NOT (
                    ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
                    OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
                  )
                ),
                FALSE
              )
              THEN TRY_CAST(`bonus_pct` AS DOUBLE)
            END IS NULL
          ),
          FALSE
        )
        THEN COALESCE(`bonus_pct`, '')
        WHEN COALESCE(
          (
            `active` IS NULL
            OR `active` = ''
            OR CASE
              WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
              THEN TRUE
              WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
              THEN FALSE
            END IS NULL
          ),
          FALSE
        )
        THEN COALESCE(`active`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN COALESCE((
          `id` IS NULL OR `id` = '' OR `$shared.0` IS NULL
        ), FALSE)
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=1 field="id" declared_type=Int: value "',
          COALESCE(`id`, ''),
          '" is not a valid Int'
        )
        WHEN COALESCE(
          (
            `hired` IS NULL
            OR `hired` = ''
            OR CASE
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
              WHEN COALESCE(`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z', FALSE)
              THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
            END IS NULL
          ),
          FALSE
        )
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=5 field="hired" declared_type=Date: value "',
          COALESCE(`hired`, ''),
          '" is not a valid Date'
        )
        WHEN COALESCE(
          (
            NOT (
              `bonus_pct` IS NULL OR `bonus_pct` = ''
            )
            AND CASE
              WHEN COALESCE(
                (
                  COALESCE(`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z', FALSE)
                  AND NOT (
                    ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
                    OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
                  )
                ),
                FALSE
              )
              THEN TRY_CAST(`bonus_pct` AS DOUBLE)
            END IS NULL
          ),
          FALSE
        )
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=6 field="bonus_pct" declared_type=Float: value "',
          COALESCE(`bonus_pct`, ''),
          '" is not a valid Float'
        )
        WHEN COALESCE(
          (
            `active` IS NULL
            OR `active` = ''
            OR CASE
              WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
              THEN TRUE
              WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
              THEN FALSE
            END IS NULL
          ),
          FALSE
        )
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$source.file`,
          '" row=',
          CAST(`$source.row` AS STRING),
          ' column=7 field="active" declared_type=Bool: value "',
          COALESCE(`active`, ''),
          '" is not a valid Bool'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'employees' AS `$node`,
      CAST(MAP(
        'id',
        `id`,
        'name',
        `name`,
        'dept',
        `dept`,
        'salary',
        `salary`,
        'hired',
        `hired`,
        'bonus_pct',
        `bonus_pct`,
        'active',
        `active`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM (
  SELECT
    *,
    CASE
      WHEN COALESCE(`id` RLIKE '^[+-]?[0-9]+\\z', FALSE)
      THEN TRY_CAST(`id` AS BIGINT)
    END AS `$shared.0`
  FROM `employees.rows`
) AS `input`;
