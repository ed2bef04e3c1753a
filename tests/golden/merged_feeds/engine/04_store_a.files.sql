-- source store_a: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `store_a.files` AS
SELECT
  `$file`,
  './data/store_a.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `store_a.split`
) AS f;
