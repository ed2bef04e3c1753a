-- sink roster: the records it receives, and the rows of the chain before it that failed (enrich.failed; codegen/split_write.py)
CREATE OR REPLACE TEMPORARY VIEW `roster.split` AS
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
  `$source.order`,
  `$live`,
  `$dlq`
FROM `enrich.carry`
WHERE
  `$live` OR NOT `$dlq` IS NULL;
