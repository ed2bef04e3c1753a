-- sink report: the statements that hold its logic (step 41 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from ranked: region, dept, total, largest, orders, rank, region_total

-- step 41
-- sink report: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `report.rows` AS
SELECT
  `region`,
  `dept`,
  `total`,
  `largest`,
  `orders`,
  `rank`,
  `region_total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`
FROM `ranked`;
