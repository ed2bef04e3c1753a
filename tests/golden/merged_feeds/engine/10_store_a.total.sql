-- source store_a: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `store_a.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `store_a.offsets`;
