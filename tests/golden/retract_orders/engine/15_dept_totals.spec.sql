-- aggregate dept_totals: one pass over the fused chain before it (parse.carry): its failing rows, each a group of its own, and its good rows' groups as if nothing were retracted (codegen/one_pass.py)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.spec` AS
SELECT
  `region`,
  `dept`,
  TRY_CAST(SUM(CAST(`$arg.0.0` AS DECIMAL(38, 0))) AS BIGINT) AS `$agg.0`,
  NOT SUM(CAST(`$arg.0.0` AS DECIMAL(38, 0))) IS NULL
  AND TRY_CAST(SUM(CAST(`$arg.0.0` AS DECIMAL(38, 0))) AS BIGINT) IS NULL AS `$agg.0.overflow`,
  MAX(`$arg.1.0`) AS `$agg.1`,
  COUNT(*) AS `$agg.2`,
  MIN((
    `$source.order` + 1
  ) * 9007199254740992 + `$source.row`) AS `$first`,
  `$fail`,
  `$fail.entry`
FROM (
  SELECT
    `order_id`,
    `line`,
    `region`,
    `dept`,
    `amount`,
    `$source.name`,
    `$source.file`,
    `$source.row`,
    `$source.order`,
    `$ck.order_id`,
    CASE WHEN `$dlq` IS NULL THEN `amount` END AS `$arg.0.0`,
    CASE WHEN `$dlq` IS NULL THEN `amount` END AS `$arg.1.0`,
    CASE WHEN `$dlq` IS NULL THEN TRUE END AS `$keep`,
    CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$err`,
    CASE WHEN NOT `$dlq` IS NULL THEN MONOTONICALLY_INCREASING_ID() END AS `$fail`,
    CASE WHEN NOT `$dlq` IS NULL THEN TO_JSON(`$dlq`) END AS `$fail.entry`
  FROM `parse.carry`
  WHERE
    `$live` OR NOT `$dlq` IS NULL
) AS e
WHERE
  NOT `$fail` IS NULL OR (
    `$err` IS NULL AND `$keep`
  )
GROUP BY
  `region`,
  `dept`,
  `$fail`,
  `$fail.entry`;
