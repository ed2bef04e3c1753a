-- run summary counts (chosen for speed: with no row in $pipeline.triggers and every source's rows counted while read, the runner knows them without this query), after the writes: they count the rows that fail in enrich.carry, and with none the DLQ is empty and not computed (codegen/empty_dlq.py)
SELECT
  (
    SELECT
      `$rows`
    FROM `employees.total`
  ) AS `total:employees`,
  `dlq:employees`,
  `dlq_rows:employees`,
  `dlq_triggers:employees`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'employees' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:employees`,
    COUNT_IF(`n` = 'employees' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:employees`,
    COUNT_IF(`n` = 'employees' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:employees`,
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
