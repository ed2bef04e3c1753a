-- run summary: what the sinks wrote
SELECT
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:order_lines`,
  COUNT(*) AS `ok`,
  COUNT_IF(`$source.name` = 'orders' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:orders`
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
    ) AS `w0`
  FROM (
    SELECT
      CAST(0 AS BIGINT) AS `sink`,
      `$source.name`,
      `$source.row`,
      `$source.order`
    FROM `order_lines.rows`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
