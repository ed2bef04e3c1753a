-- transform lines: the statements that hold its logic (steps 12, 13, 14, 15 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   line_count <- entries.length() (let entries = items.split(";").filter(it => it != "")) [reads orders.items]
--   unchanged from orders: order_id, customer, items, sku, qty

-- step 12
-- transform lines: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `lines.eval` AS
SELECT
  *,
  CAST(SIZE(
    FILTER(
      CASE
        WHEN ';' = ''
        THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
        ELSE SPLIT(`items`, '\\Q;\\E', -1)
      END,
      `_cxl_it1` -> COALESCE((
        NOT (
          `_cxl_it1` IS NOT DISTINCT FROM ''
        )
      ), FALSE)
    )
  ) AS BIGINT) AS `$out.line_count`,
  TRANSFORM(
    CASE
      WHEN FILTER(
        CASE
          WHEN ';' = ''
          THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
          ELSE SPLIT(`items`, '\\Q;\\E', -1)
        END,
        `_cxl_it1` -> COALESCE((
          NOT (
            `_cxl_it1` IS NOT DISTINCT FROM ''
          )
        ), FALSE)
      ) IS NULL
      OR SIZE(
        FILTER(
          CASE
            WHEN ';' = ''
            THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
            ELSE SPLIT(`items`, '\\Q;\\E', -1)
          END,
          `_cxl_it1` -> COALESCE((
            NOT (
              `_cxl_it1` IS NOT DISTINCT FROM ''
            )
          ), FALSE)
        )
      ) = 0
      THEN ARRAY(CAST(NULL AS STRING))
      ELSE FILTER(
        CASE
          WHEN ';' = ''
          THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
          ELSE SPLIT(`items`, '\\Q;\\E', -1)
        END,
        `_cxl_it1` -> COALESCE((
          NOT (
            `_cxl_it1` IS NOT DISTINCT FROM ''
          )
        ), FALSE)
      )
    END,
    `_cxl_e2` -> STRUCT(
      CAST(CAST(SIZE(
        FILTER(
          CASE
            WHEN ';' = ''
            THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
            ELSE SPLIT(`items`, '\\Q;\\E', -1)
          END,
          `_cxl_it1` -> COALESCE((
            NOT (
              `_cxl_it1` IS NOT DISTINCT FROM ''
            )
          ), FALSE)
        )
      ) AS BIGINT) AS BIGINT) AS f0,
      CAST(GET(
        CASE
          WHEN ':' = ''
          THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
          ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
        END,
        TRY_CAST(CAST(0 AS BIGINT) AS INT)
      ) AS STRING) AS f1,
      CAST(GET(
        TRANSFORM(
          ARRAY(
            CAST(GET(
              CASE
                WHEN ':' = ''
                THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
              END,
              TRY_CAST(CAST(1 AS BIGINT) AS INT)
            ) AS STRING)
          ),
          `_cxl_s1` -> CASE WHEN `_cxl_s1` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`_cxl_s1` AS BIGINT) END
        ),
        0
      ) AS BIGINT) AS f2
    )
  ) AS `$each`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$err.0`,
  TRUE AS `$keep.0`,
  AGGREGATE(
    FLATTEN(
      TRANSFORM(
        CASE
          WHEN FILTER(
            CASE
              WHEN ';' = ''
              THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
              ELSE SPLIT(`items`, '\\Q;\\E', -1)
            END,
            `_cxl_it1` -> COALESCE((
              NOT (
                `_cxl_it1` IS NOT DISTINCT FROM ''
              )
            ), FALSE)
          ) IS NULL
          OR SIZE(
            FILTER(
              CASE
                WHEN ';' = ''
                THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
                ELSE SPLIT(`items`, '\\Q;\\E', -1)
              END,
              `_cxl_it1` -> COALESCE((
                NOT (
                  `_cxl_it1` IS NOT DISTINCT FROM ''
                )
              ), FALSE)
            )
          ) = 0
          THEN ARRAY(CAST(NULL AS STRING))
          ELSE FILTER(
            CASE
              WHEN ';' = ''
              THEN CASE WHEN `items` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`items`, ''), ARRAY('')) END
              ELSE SPLIT(`items`, '\\Q;\\E', -1)
            END,
            `_cxl_it1` -> COALESCE((
              NOT (
                `_cxl_it1` IS NOT DISTINCT FROM ''
              )
            ), FALSE)
          )
        END,
        `_cxl_e2` -> CONCAT(
          ARRAY(
            STRUCT(
              TRUE AS s,
              CAST(NULL AS STRING) AS c,
              CAST(NULL AS STRING) AS m,
              CAST(NULL AS STRING) AS f,
              CAST(NULL AS STRING) AS v
            )
          ),
          ARRAY(
            CASE
              WHEN NOT GET(
                CASE
                  WHEN ':' = ''
                  THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                  ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
                END,
                TRY_CAST(CAST(1 AS BIGINT) AS INT)
              ) IS NULL
              AND (
                NOT GET(
                  CASE
                    WHEN ':' = ''
                    THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                    ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
                  END,
                  TRY_CAST(CAST(1 AS BIGINT) AS INT)
                ) IS NULL
                AND GET(
                  TRANSFORM(
                    ARRAY(
                      CAST(GET(
                        CASE
                          WHEN ':' = ''
                          THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                          ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
                        END,
                        TRY_CAST(CAST(1 AS BIGINT) AS INT)
                      ) AS STRING)
                    ),
                    `_cxl_s2` -> CASE WHEN `_cxl_s2` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`_cxl_s2` AS BIGINT) END
                  ),
                  0
                ) IS NULL
              )
              THEN STRUCT(
                FALSE AS s,
                'type_coercion_failure' AS c,
                CONCAT(
                  'conversion failed: cannot convert \'',
                  CAST(GET(
                    CASE
                      WHEN ':' = ''
                      THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                      ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
                    END,
                    TRY_CAST(CAST(1 AS BIGINT) AS INT)
                  ) AS STRING),
                  '\' to ',
                  CAST('Int' AS STRING)
                ) AS m,
                'qty' AS f,
                CAST(GET(
                  CASE
                    WHEN ':' = ''
                    THEN CASE WHEN `_cxl_e2` = '' THEN ARRAY('', '') ELSE CONCAT(ARRAY(''), SPLIT(`_cxl_e2`, ''), ARRAY('')) END
                    ELSE SPLIT(`_cxl_e2`, '\\Q:\\E', -1)
                  END,
                  TRY_CAST(CAST(1 AS BIGINT) AS INT)
                ) AS STRING) AS v
              )
            END
          )
        )
      )
    ),
    STRUCT(
      CAST(CAST(0 AS BIGINT) AS BIGINT) AS n,
      CAST(NULL AS STRUCT<s: BOOLEAN, c: STRING, m: STRING, f: STRING, v: STRING>) AS r
    ),
    (`_cxl_acc`, `_cxl_ev`) -> CASE
      WHEN NOT `_cxl_acc`.`r` IS NULL OR `_cxl_ev` IS NULL
      THEN `_cxl_acc`
      WHEN `_cxl_ev`.`s` AND `_cxl_acc`.`n` >= CAST(10000 AS BIGINT)
      THEN STRUCT(
        `_cxl_acc`.`n` AS n,
        STRUCT(
          FALSE AS s,
          'expansion_limit_exceeded' AS c,
          'emit_each fan-out exceeded max_expansion (limit 10000)' AS m,
          CAST(NULL AS STRING) AS f,
          CAST(NULL AS STRING) AS v
        ) AS r
      )
      WHEN `_cxl_ev`.`s`
      THEN STRUCT(`_cxl_acc`.`n` + CAST(1 AS BIGINT) AS n, `_cxl_acc`.`r` AS r)
      WHEN NOT `_cxl_ev`.`m` IS NULL
      THEN STRUCT(`_cxl_acc`.`n` AS n, `_cxl_ev` AS r)
      ELSE `_cxl_acc`
    END,
    `_cxl_acc` -> CASE
      WHEN NOT `_cxl_acc`.`r` IS NULL
      THEN STRUCT(
        `_cxl_acc`.`r`.`c` AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CASE WHEN `_cxl_acc`.`r`.`f` IS NULL THEN '' ELSE CONCAT('field \'', `_cxl_acc`.`r`.`f`, '\': ') END,
          `_cxl_acc`.`r`.`m`
        ) AS detail,
        `_cxl_acc`.`r`.`f` AS field,
        `_cxl_acc`.`r`.`v` AS value
      )
      ELSE CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>)
    END
  ) AS `$err.1`,
  TRUE AS `$keep.1`,
  STRUCT(`order_id` AS k0) AS `$key.1`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$keyerr.1`
FROM `orders`;

-- step 13
-- transform lines: distinct #1, the first row of each key in arrival order continues
CREATE OR REPLACE TEMPORARY VIEW `lines.distinct1` AS
SELECT
  *,
  `$err.0` IS NULL AND `$keep.0` AND `$keyerr.1` IS NULL AS `$part.1`,
  ROW_NUMBER() OVER (
    PARTITION BY `$err.0` IS NULL AND `$keep.0` AND `$keyerr.1` IS NULL, `$key.1`
    ORDER BY `$source.order` NULLS LAST, `$source.row` NULLS LAST
  ) AS `$rank.1`
FROM `lines.eval`;

-- step 14
-- transform lines: each row's first failure and whether it continues
CREATE OR REPLACE TEMPORARY VIEW `lines.checked` AS
SELECT
  *,
  `$part.1` AND `$rank.1` = 1 AND `$keep.1` AS `$keep`,
  CASE
    WHEN NOT `$err.0` IS NULL
    THEN `$err.0`
    WHEN `$err.0` IS NULL AND `$keep.0` AND NOT `$keyerr.1` IS NULL
    THEN `$keyerr.1`
    WHEN `$part.1` AND `$rank.1` = 1 AND NOT `$err.1` IS NULL
    THEN `$err.1`
    ELSE CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>)
  END AS `$err`
FROM `lines.distinct1`;

-- step 15
-- transform lines: good rows, one per emit each record (a row without any is written as itself)
CREATE OR REPLACE TEMPORARY VIEW `lines` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `$leaf`.`f0` AS `line_count`,
  `$leaf`.`f1` AS `sku`,
  `$leaf`.`f2` AS `qty`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  CASE WHEN `$pos` IS NULL THEN CAST(NULL AS ARRAY<BIGINT>) ELSE ARRAY(CAST(`$pos` AS BIGINT)) END AS `$fan`
FROM `lines.checked`
LATERAL VIEW OUTER
POSEXPLODE(`$each`) _cxl_records AS `$pos`, `$leaf`
WHERE
  `$err` IS NULL AND `$keep`;
