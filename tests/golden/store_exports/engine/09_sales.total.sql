-- source sales: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `sales.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `sales.offsets`;
