-- source store_b: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `store_b.files` AS
SELECT
  `$file`,
  './data/store_b.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `store_b.split`
) AS f;
