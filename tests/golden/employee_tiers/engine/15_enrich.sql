-- transform enrich: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   name <- name.trim().upper() [reads employees.name]
--   salary <- pay (let pay = salary.to_int()) [reads employees.salary]
--   tier <- match { pay >= 100000 => "principal", pay >= 80000 => "senior", _ => "staff" } (let pay = salary.to_int()) [reads employees.salary]
--   bonus <- (pay * (bonus_pct ?? 0.0)).round(2) (let pay = salary.to_int()) [reads employees.salary, employees.bonus_pct]
--   hired_year <- hired.year() [reads employees.hired]
--   team <- match dept { "eng" => "Engineering", "ops" => "Operations", _ => "Other" } [reads employees.dept]
--   unchanged from employees: id, dept, hired, bonus_pct, active
--   rows: active
CREATE OR REPLACE TEMPORARY VIEW `enrich` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `tier`,
  `bonus`,
  `hired_year`,
  `team`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `enrich.carry`
WHERE
  `$live`;
