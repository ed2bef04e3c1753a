-- transform ranked: the statements that hold its logic (step 34 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   rank <- $window.row_number() [reads dept_totals.region, dept_totals.total]
--   region_total <- $window.sum(total) [reads dept_totals.total, dept_totals.region]
--   unchanged from dept_totals: region, dept, total, largest, orders, $ck.aggregate.dept_totals

-- step 34
-- transform ranked: evaluate the CXL (window in buffer mode: partitions recomputed over surviving rows)
CREATE OR REPLACE TEMPORARY VIEW `ranked.eval` AS
SELECT
  `region`,
  `dept`,
  `total`,
  `largest`,
  `orders`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`,
  `region` AS `$out.region`,
  `dept` AS `$out.dept`,
  `total` AS `$out.total`,
  `largest` AS `$out.largest`,
  `orders` AS `$out.orders`,
  CASE
    WHEN COALESCE((
      `region` IS NULL OR `$retracted` IS NULL
    ), FALSE)
    THEN CAST(NULL AS BIGINT)
    ELSE CAST(ROW_NUMBER() OVER (
      PARTITION BY `region`, `$retracted`
      ORDER BY `total` DESC, `$source.order` NULLS LAST, `$source.row` NULLS LAST
    ) AS BIGINT)
  END AS `$out.rank`,
  CASE
    WHEN COALESCE((
      `region` IS NULL OR `$retracted` IS NULL
    ), FALSE)
    THEN CAST(NULL AS DOUBLE)
    ELSE CAST(SUM(CAST(`total` AS DOUBLE)) OVER (PARTITION BY `region`, `$retracted`) AS DOUBLE)
  END AS `$out.region_total`,
  TRUE AS `$keep`,
  CASE
    WHEN `$retracted`
    THEN CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>)
    ELSE CASE
      WHEN COALESCE((
        `region` IS NULL OR `$retracted` IS NULL
      ), FALSE)
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          'field \'rank\': ',
          'type mismatch: expected a window partition, got a null partition key'
        ) AS detail,
        'rank' AS field,
        CAST(NULL AS STRING) AS value
      )
    END
  END AS `$err`
FROM `ranked.input`;
