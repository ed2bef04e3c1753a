-- aggregate dept_totals: the statements that hold its logic (steps 22, 29, 30 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   total <- sum(amount) [reads parse.amount]
--   largest <- max(amount) [reads parse.amount]
--   orders <- count(*)
--   $ck.aggregate.dept_totals <- the stable group number of this retraction-mode aggregate (0-based, first-seen order)
--   unchanged from parse: region, dept

-- step 22
-- aggregate dept_totals: retraction path (group_by omits correlation-key field(s) $ck.order_id); bindings BufferRequired, Reversible: per-row arguments
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.eval` AS
SELECT
  *,
  `amount` AS `$arg.0.0`,
  `amount` AS `$arg.1.0`,
  TRUE AS `$keep`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$err`
FROM `parse`;

-- step 29
-- aggregate dept_totals: one row per group: the values over the rows not retracted, the first-seen position over every row
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.groups` AS
SELECT
  `region`,
  `dept`,
  ANY_VALUE(`$agg.0`) FILTER(WHERE
    NOT `$retracted`) AS `$agg.0`,
  ANY_VALUE(`$agg.0.overflow`) FILTER(WHERE
    NOT `$retracted`) AS `$agg.0.overflow`,
  ANY_VALUE(`$agg.1`) FILTER(WHERE
    NOT `$retracted`) AS `$agg.1`,
  ANY_VALUE(`$agg.2`) FILTER(WHERE
    NOT `$retracted`) AS `$agg.2`,
  MIN(`$first`) AS `$first`,
  BOOL_OR(NOT `$retracted`) AS `$live`
FROM (
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
    `$retracted`
  FROM `dept_totals.input`
  WHERE
    `$err` IS NULL AND `$keep`
  GROUP BY
    `region`,
    `dept`,
    `$retracted`
) AS partial
GROUP BY
  `region`,
  `dept`;

-- step 30
-- aggregate dept_totals: emitted values (first-seen group order); when nothing is retracted, read from dept_totals.spec_groups instead (the same SELECT)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.final` AS
SELECT
  `region`,
  `dept`,
  `$agg.0` AS `total`,
  `$agg.1` AS `largest`,
  `$agg.2` AS `orders`,
  '<merged>' AS `$source.name`,
  '<merged>' AS `$source.file`,
  CAST(`groups`.`$group.index` + 1 AS BIGINT) AS `$source.row`,
  CAST('-1' AS BIGINT) AS `$source.order`,
  CAST(`groups`.`$group.index` + 1 AS BIGINT) - CAST(1 AS BIGINT) AS `$ck.aggregate.dept_totals`,
  CASE
    WHEN `$agg.0.overflow`
    THEN STRUCT(
      'aggregate_finalize' AS category,
      CONCAT('row ', CAST(`$source.row` AS STRING), ': ', 'aggregate dept_totals.sum: integer overflow') AS detail,
      CAST(NULL AS STRING) AS field,
      CAST(NULL AS STRING) AS value
    )
  END AS `$err`,
  `groups`.`region` AS `$key.0`,
  `groups`.`dept` AS `$key.1`,
  `groups`.`$group.index` AS `$group.index`
FROM (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY `$first`) - 1 AS `$group.index`
  FROM `dept_totals.groups`
) AS groups
WHERE
  `$live`;
-- when $pipeline.triggers_early has no row, nothing is retracted before it: the runner defines it instead as
-- CREATE OR REPLACE TEMPORARY VIEW `dept_totals.final` AS
-- SELECT
--   `region`,
--   `dept`,
--   `$agg.0` AS `total`,
--   `$agg.1` AS `largest`,
--   `$agg.2` AS `orders`,
--   '<merged>' AS `$source.name`,
--   '<merged>' AS `$source.file`,
--   CAST(`groups`.`$group.index` + 1 AS BIGINT) AS `$source.row`,
--   CAST('-1' AS BIGINT) AS `$source.order`,
--   CAST(`groups`.`$group.index` + 1 AS BIGINT) - CAST(1 AS BIGINT) AS `$ck.aggregate.dept_totals`,
--   CASE
--     WHEN `$agg.0.overflow`
--     THEN STRUCT(
--       'aggregate_finalize' AS category,
--       CONCAT('row ', CAST(`$source.row` AS STRING), ': ', 'aggregate dept_totals.sum: integer overflow') AS detail,
--       CAST(NULL AS STRING) AS field,
--       CAST(NULL AS STRING) AS value
--     )
--   END AS `$err`,
--   `groups`.`region` AS `$key.0`,
--   `groups`.`dept` AS `$key.1`,
--   `groups`.`$group.index` AS `$group.index`
-- FROM (
--   SELECT
--     *,
--     ROW_NUMBER() OVER (ORDER BY `$first`) - 1 AS `$group.index`
--   FROM `dept_totals.spec_groups`
-- ) AS groups
-- WHERE
--   `$live`;
