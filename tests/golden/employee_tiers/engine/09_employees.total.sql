-- source employees: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `employees.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `employees.offsets`;
