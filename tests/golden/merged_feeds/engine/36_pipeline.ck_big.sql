-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.sku`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.sku` IS NULL
GROUP BY
  `$ck.sku`
HAVING
  COUNT(*) > 100000;
