-- transform enrich: the statements that hold its logic (step 11 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   name <- name.trim().upper() [reads employees.name]
--   salary <- pay (let pay = salary.to_int()) [reads employees.salary]
--   tier <- match { pay >= 100000 => "principal", pay >= 80000 => "senior", _ => "staff" } (let pay = salary.to_int()) [reads employees.salary]
--   bonus <- (pay * (bonus_pct ?? 0.0)).round(2) (let pay = salary.to_int()) [reads employees.salary, employees.bonus_pct]
--   hired_year <- hired.year() [reads employees.hired]
--   team <- match dept { "eng" => "Engineering", "ops" => "Operations", _ => "Other" } [reads employees.dept]
--   unchanged from employees: id, dept, hired, bonus_pct, active
--   rows: active

-- step 11
-- transform enrich: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `enrich.eval` AS
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
  `$live`,
  `$dlq`,
  CASE WHEN `$live` THEN UPPER(REGEXP_REPLACE(`name`, '(?U)^\\s+|\\s+$', '')) END AS `$out.name`,
  CASE WHEN `$live` THEN `$shared.0` END AS `$out.salary`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE((
        `$shared.0` >= CAST(100000 AS BIGINT)
      ), FALSE)
      THEN 'principal'
      WHEN COALESCE((
        `$shared.0` >= CAST(80000 AS BIGINT)
      ), FALSE)
      THEN 'senior'
      ELSE 'staff'
    END
  END AS `$out.tier`,
  CASE
    WHEN `$live`
    THEN CXL_FLOAT_ROUND(
      CAST(`$shared.0` AS DOUBLE) * COALESCE(`bonus_pct`, CAST('0.0' AS DOUBLE)),
      COALESCE(CAST(2 AS BIGINT), CAST(0 AS BIGINT))
    )
  END AS `$out.bonus`,
  CASE WHEN `$live` THEN CAST(YEAR(`hired`) AS BIGINT) END AS `$out.hired_year`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN `dept` IS NOT DISTINCT FROM 'eng'
      THEN 'Engineering'
      WHEN `dept` IS NOT DISTINCT FROM 'ops'
      THEN 'Operations'
      ELSE 'Other'
    END
  END AS `$out.team`,
  CASE WHEN `$live` THEN COALESCE(`active`, FALSE) END AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE(
        (
          COALESCE(`active`, FALSE)
          AND (
            NOT `salary` IS NULL AND (
              NOT `salary` IS NULL AND `$shared.0` IS NULL
            )
          )
        ),
        FALSE
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`salary`, 'Int')) AS detail,
        CAST(NULL AS STRING) AS field,
        `salary` AS value
      )
    END
  END AS `$err`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`salary`) AS `$shared.0`
  FROM `employees.carry`
) AS `input`;
