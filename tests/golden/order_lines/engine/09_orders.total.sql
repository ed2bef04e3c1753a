-- source orders: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `orders.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `orders.offsets`;
