-- source employees: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `employees.files` AS
SELECT
  `$file`,
  './data/employees.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `employees.split`
) AS f;
