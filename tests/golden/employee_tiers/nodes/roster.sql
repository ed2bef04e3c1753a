-- sink roster: the statements that hold its logic (step 20 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from enrich: id, name, dept, salary, hired, bonus_pct, active, tier, bonus,
--                          hired_year, team

-- step 20
-- sink roster: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `roster.rows` AS
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
FROM `enrich`;
