-- transform enrich: good rows
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
