-- run summary counts (chosen for speed: with no row in $pipeline.triggers, $pipeline.ck_overflow and every source's rows counted while read, the runner knows them without this query)
SELECT
  (
    SELECT
      `$rows`
    FROM `store_a.total`
  ) AS `total:store_a`,
  (
    SELECT
      `$rows`
    FROM `store_b.total`
  ) AS `total:store_b`,
  `dlq:store_a`,
  `dlq_rows:store_a`,
  `dlq_triggers:store_a`,
  `dlq:store_b`,
  `dlq_rows:store_b`,
  `dlq_triggers:store_b`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'store_a' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:store_a`,
    COUNT_IF(`n` = 'store_a' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:store_a`,
    COUNT_IF(`n` = 'store_a' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:store_a`,
    COALESCE(
      SUM(CASE WHEN `n` = 'store_b' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:store_b`,
    COUNT_IF(`n` = 'store_b' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:store_b`,
    COUNT_IF(`n` = 'store_b' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:store_b`,
    COALESCE(SUM(`c`), CAST(0 AS BIGINT)) AS `dlq`
  FROM (
    SELECT
      `_cxl_dlq_source_name` AS `n`,
      `_cxl_dlq_source_row` AS `r`,
      `$source.order` >= CAST(0 AS BIGINT) AS `real`,
      COUNT(*) AS `c`,
      MAX(CAST(`_cxl_dlq_trigger` AS INT)) AS `t`
    FROM `$pipeline.dlq`
    GROUP BY
      `_cxl_dlq_source_name`,
      `_cxl_dlq_source_row`,
      `$source.order` >= CAST(0 AS BIGINT)
  ) AS `per_row`
) AS `d`;
