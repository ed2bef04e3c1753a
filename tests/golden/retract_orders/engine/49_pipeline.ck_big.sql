-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.order_id`,
  `$ck.aggregate.dept_totals`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.order_id` IS NULL OR NOT `$ck.aggregate.dept_totals` IS NULL
GROUP BY
  `$ck.order_id`,
  `$ck.aggregate.dept_totals`
HAVING
  COUNT(*) > 100000;
