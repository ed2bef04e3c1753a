-- transform enrich: the statements that hold its logic (step 12 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   name <- name.trim().upper() [reads employees.name]
--   salary <- pay (let pay = salary.to_int()) [reads employees.salary]
--   tier <- match { pay >= 100000 => "principal", pay >= 80000 => "senior", _ => "staff" } (let pay = salary.to_int()) [reads employees.salary]
--   bonus <- (pay * (bonus_pct ?? 0.0)).round(2) (let pay = salary.to_int()) [reads employees.salary, employees.bonus_pct]
--   hired_year <- hired.year() [reads employees.hired]
--   team <- match dept { "eng" => "Engineering", "ops" => "Operations", _ => "Other" } [reads employees.dept]
--   unchanged from employees: id, dept, hired, bonus_pct, active
--   rows: active

-- step 12
-- transform enrich: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `enrich.eval` AS
SELECT
  *,
  UPPER(REGEXP_REPLACE(`name`, '(?U)^\\s+|\\s+$', '')) AS `$out.name`,
  `$shared.0` AS `$out.salary`,
  CASE
    WHEN `$shared.0` >= CAST(100000 AS BIGINT)
    THEN 'principal'
    WHEN `$shared.0` >= CAST(80000 AS BIGINT)
    THEN 'senior'
    ELSE 'staff'
  END AS `$out.tier`,
  CXL_FLOAT_ROUND(CAST(`$shared.0` AS DOUBLE) * COALESCE(`bonus_pct`, CAST('0.0' AS DOUBLE)), CAST(2 AS BIGINT)) AS `$out.bonus`,
  CAST(YEAR(`hired`) AS BIGINT) AS `$out.hired_year`,
  CASE `dept` WHEN 'eng' THEN 'Engineering' WHEN 'ops' THEN 'Operations' ELSE 'Other' END AS `$out.team`,
  COALESCE(`active`, FALSE) AS `$keep`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`salary`) AS `$shared.0`
  FROM `employees.carry`
) AS `input`;
