-- run summary: what the sinks wrote
SELECT
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:margins_csv`,
  COALESCE(SUM(`w1`), CAST(0 AS BIGINT)) AS `written:margins_parquet`,
  COUNT(*) AS `ok`,
  COUNT_IF(`$source.name` = 'store_a' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:store_a`,
  COUNT_IF(`$source.name` = 'store_b' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:store_b`
FROM (
  SELECT
    `$source.name`,
    `$source.order`,
    SUM(
      CASE
        WHEN `sink` = CAST(0 AS BIGINT)
        THEN CAST(1 AS BIGINT)
        ELSE CAST(0 AS BIGINT)
      END
    ) AS `w0`,
    SUM(
      CASE
        WHEN `sink` = CAST(1 AS BIGINT)
        THEN CAST(1 AS BIGINT)
        ELSE CAST(0 AS BIGINT)
      END
    ) AS `w1`
  FROM (
    SELECT
      CAST(0 AS BIGINT) AS `sink`,
      `$source.name`,
      `$source.row`,
      `$source.order`
    FROM `margins_csv.commit`
    UNION ALL
    SELECT
      CAST(1 AS BIGINT) AS `sink`,
      `$source.name`,
      `$source.row`,
      `$source.order`
    FROM `margins_parquet.commit`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
