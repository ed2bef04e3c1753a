-- source sales: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `sales.files` AS
SELECT
  `$file`,
  REGEXP_REPLACE(`$file`, '^file:(//)?', '') AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `sales.split`
) AS f;
