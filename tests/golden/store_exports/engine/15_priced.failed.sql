-- transform priced: the rows of the fused chain sales -> priced that failed
CREATE OR REPLACE TEMPORARY VIEW `priced.failed` AS
SELECT
  `$dlq`
FROM `priced.carry`
WHERE
  NOT `$dlq` IS NULL;
