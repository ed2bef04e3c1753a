-- source orders: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `orders.files` AS
SELECT
  `$file`,
  './data/orders.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `orders.split`
) AS f;
