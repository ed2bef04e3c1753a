-- transform enrich: the rows of the fused chain employees -> enrich that failed
CREATE OR REPLACE TEMPORARY VIEW `enrich.failed` AS
SELECT
  `$dlq`
FROM `enrich.carry`
WHERE
  NOT `$dlq` IS NULL;
