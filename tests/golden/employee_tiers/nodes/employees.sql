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
-- source employees: every row typed
CREATE OR REPLACE TEMPORARY VIEW `employees.typed` AS
SELECT
  `$shared.0` AS `id`,
  COALESCE(`name`, '') AS `name`,
  COALESCE(`dept`, '') AS `dept`,
  COALESCE(`salary`, '') AS `salary`,
  CASE
    WHEN `hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
  END AS `hired`,
  CASE
    WHEN `bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
      OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
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
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `id` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`id` AS BIGINT) END AS `$shared.0`
  FROM `employees.rows`
) AS `input`;
