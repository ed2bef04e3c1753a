-- source store_b: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `store_b.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `store_b.offsets`;
