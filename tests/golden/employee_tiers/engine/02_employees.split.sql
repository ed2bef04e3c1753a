-- source employees: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `employees.split` AS
SELECT
  `id` AS `id`,
  `name` AS `name`,
  `dept` AS `dept`,
  `salary` AS `salary`,
  `hired` AS `hired`,
  `bonus_pct` AS `bonus_pct`,
  `active` AS `active`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `employees.scan`;
