-- transform price: the rows of the fused chain orders -> price that failed
CREATE OR REPLACE TEMPORARY VIEW `price.failed` AS
SELECT
  `$dlq`
FROM `price.carry`
WHERE
  NOT `$dlq` IS NULL;
