-- run summary counts (chosen for speed: with no row in $pipeline.triggers and every source's rows counted while read, the runner knows them without this query), after the writes: they count the rows that fail in numbered.checked, lines.checked, and with none the DLQ is empty and not computed (codegen/empty_dlq.py)
SELECT
  (
    SELECT
      `$rows`
    FROM `orders.total`
  ) AS `total:orders`,
  `dlq:orders`,
  `dlq_rows:orders`,
  `dlq_triggers:orders`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'orders' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:orders`,
    COUNT_IF(`n` = 'orders' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:orders`,
    COUNT_IF(`n` = 'orders' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:orders`,
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
