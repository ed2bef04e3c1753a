-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.order_id`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.order_id` IS NULL
GROUP BY
  `$ck.order_id`
HAVING
  COUNT(*) > 100000;
