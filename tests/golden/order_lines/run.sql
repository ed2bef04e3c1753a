-- clinker-sql 0.1.0: pipeline order_lines
-- every statement of the run, in order; the alternatives a run may pick instead (kind `alternative`) are only in engine/, each saying when

SET spark.sql.ansi.enabled=true;

SET spark.sql.caseSensitive=true;

SET spark.sql.session.timeZone=UTC;

SET spark.sql.csv.parser.columnPruning.enabled=false;

SET spark.sql.mapKeyDedupPolicy=LAST_WIN;

SET spark.sql.legacy.timeParserPolicy=CORRECTED;

SET spark.sql.variable.substitute=false;

SET spark.sql.legacy.storeAnalyzedPlanForView=true;

SET spark.sql.adaptive.optimizer.excludedRules=org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation;

-- The DLQ message of a failed CXL to_*() conversion: the value as text and the target type.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_conversion_failed(
    text STRING,
    target STRING
)
RETURNS STRING
RETURN CONCAT('conversion failed: cannot convert \'', text, '\' to ', target);

-- CXL to_int() / try_int() on a String: Rust's strict i64 parse (an optional sign and digits, nothing else, no blanks); NULL when it does not parse or is out of range.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_string_to_int(
    s STRING
)
RETURNS BIGINT
RETURN CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\z', FALSE) THEN TRY_CAST(s AS BIGINT) END;

-- source orders: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `orders.scan`
USING CSV
OPTIONS ('path'='./data/orders.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source orders: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `orders.split` AS
SELECT
  `order_id` AS `order_id`,
  `customer` AS `customer`,
  `items` AS `items`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `orders.scan`;

-- source orders: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `orders.files` AS
SELECT
  `$file`,
  './data/orders.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `orders.split`
) AS f;

-- checkpoint orders.files: chosen for speed, a local run lists the files (no job); the rows read its copy as a broadcast
-- the runner materializes orders.files as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source orders: where each file starts in the row numbering
CREATE OR REPLACE TEMPORARY VIEW `orders.offsets` AS
WITH files AS (
  SELECT
    `$file`,
    MIN(`$mid` % CAST(8589934592 AS BIGINT)) AS `$first`,
    COUNT(*) AS `$rows`
  FROM `orders.split`
  GROUP BY
    `$file`
)
SELECT
  `$file`,
  `$first`,
  `$rows`,
  COALESCE(
    SUM(`$rows`) OVER (ORDER BY `$file` ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
    0
  ) AS `$before`
FROM files;

-- source orders: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `orders.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`order_id`,
  scan.`customer`,
  scan.`items`,
  'orders' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(0 AS BIGINT) AS `$source.order`
FROM `orders.split` AS scan
JOIN `orders.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `orders.rows` AS
-- SELECT
--   scan.`order_id`,
--   scan.`customer`,
--   scan.`items`,
--   'orders' AS `$source.name`,
--   scan.`$at`.`$path` AS `$source.file`,
--   `scan`.`$at`.`$rank` * CAST(8589934592 AS BIGINT) + (
--     `scan`.`$mid` % CAST(8589934592 AS BIGINT)
--   ) AS `$source.row`,
--   CAST(0 AS BIGINT) AS `$source.order`
-- FROM (
--   SELECT
--     *,
--     ELEMENT_AT(
--       (
--         SELECT
--           MAP_FROM_ENTRIES(
--             COLLECT_LIST(
--               STRUCT(`$file` AS `key`, STRUCT(`$path` AS `$path`, `$rank` AS `$rank`) AS `value`)
--             )
--           )
--         FROM `orders.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `orders.split`
-- ) AS scan;

-- source orders: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `orders.bytes`
USING TEXT
OPTIONS ('path'='./data/orders.csv');

-- source orders: bytes that are not UTF-8 fail the run (run only when a row read held U+FFFD, or the rows were not counted)
SELECT
  CONCAT(
    'source "orders": file "',
    './data/orders.csv',
    '": input is not valid UTF-8. Declare the source\'s character set (e.g. `encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire'
  ) AS `detail`
FROM (
  SELECT
    MIN(`$file`) AS `$file`
  FROM (
    SELECT
      INPUT_FILE_NAME() AS `$file`
    FROM `orders.bytes`
    WHERE
      NOT IS_VALID_UTF8(`value`)
  ) AS `lines`
) AS `bad`
WHERE
  NOT `$file` IS NULL;

-- source orders: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `orders.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `orders.offsets`;

-- source orders: typed rows (values that do not cast go to the DLQ)
CREATE OR REPLACE TEMPORARY VIEW `orders` AS
SELECT
  COALESCE(`order_id`, '') AS `order_id`,
  COALESCE(`customer`, '') AS `customer`,
  COALESCE(`items`, '') AS `items`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `orders.rows`
WHERE
  NOT (
    FALSE
  );

-- source orders: DLQ entries for values that violate the declared type
CREATE OR REPLACE TEMPORARY VIEW `orders.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CASE WHEN FALSE THEN 'order_id' END AS `_cxl_dlq_triggering_field`,
  CASE WHEN FALSE THEN COALESCE(`order_id`, '') END AS `_cxl_dlq_triggering_value`,
  'type_coercion_failure' AS `_cxl_dlq_error_category`,
  NULL AS `_cxl_dlq_error_detail`,
  'source' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  `customer`,
  `items`
FROM `orders.rows`
WHERE
  FALSE;

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

-- transform lines: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `lines.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:lines' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  `customer`,
  `items`
FROM `lines.checked`
WHERE
  NOT `$err` IS NULL;

-- transform numbered: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `numbered.eval` AS
SELECT
  *,
  CXL_STRING_TO_INT(
    SUBSTRING(
      `sku`,
      CAST(LEAST(
        COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
        CAST(2147483646 AS BIGINT)
      ) + 1 AS INT)
    )
  ) AS `$out.sku_number`
FROM `lines`;

-- transform numbered: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `numbered.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN NOT SUBSTRING(
      `sku`,
      CAST(LEAST(
        COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
        CAST(2147483646 AS BIGINT)
      ) + 1 AS INT)
    ) IS NULL
    AND (
      NOT SUBSTRING(
        `sku`,
        CAST(LEAST(
          COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
          CAST(2147483646 AS BIGINT)
        ) + 1 AS INT)
      ) IS NULL
      AND CXL_STRING_TO_INT(
        SUBSTRING(
          `sku`,
          CAST(LEAST(
            COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
            CAST(2147483646 AS BIGINT)
          ) + 1 AS INT)
        )
      ) IS NULL
    )
    THEN STRUCT(
      'type_coercion_failure' AS category,
      CONCAT(
        'row ',
        CAST(`$source.row` AS STRING),
        ': ',
        'field \'sku_number\': ',
        CXL_CONVERSION_FAILED(
          SUBSTRING(
            `sku`,
            CAST(LEAST(
              COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
              CAST(2147483646 AS BIGINT)
            ) + 1 AS INT)
          ),
          'Int'
        )
      ) AS detail,
      'sku_number' AS field,
      SUBSTRING(
        `sku`,
        CAST(LEAST(
          COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
          CAST(2147483646 AS BIGINT)
        ) + 1 AS INT)
      ) AS value
    )
  END AS `$err`
FROM `numbered.eval`;

-- transform numbered: good rows
CREATE OR REPLACE TEMPORARY VIEW `numbered` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `$out.sku_number` AS `sku_number`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`
FROM `numbered.checked`
WHERE
  `$err` IS NULL AND `$keep`;

-- transform numbered: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `numbered.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:numbered' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  `customer`,
  `items`,
  CAST(`line_count` AS STRING) AS `line_count`,
  `sku`,
  CAST(`qty` AS STRING) AS `qty`
FROM `numbered.checked`
WHERE
  NOT `$err` IS NULL;

-- sink order_lines: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `order_lines.rows` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `sku_number`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`
FROM `numbered`;

-- DLQ triggers: every node's error view
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
SELECT
  `_cxl_dlq_source_file`,
  `_cxl_dlq_source_name`,
  `_cxl_dlq_source_row`,
  `_cxl_dlq_triggering_field`,
  `_cxl_dlq_triggering_value`,
  `_cxl_dlq_error_category`,
  `_cxl_dlq_error_detail`,
  `_cxl_dlq_stage`,
  `_cxl_dlq_route`,
  `_cxl_dlq_trigger`,
  `$source.order`,
  CAST(0 AS BIGINT) AS `$layout`,
  `customer`,
  `items`,
  CAST(NULL AS STRING) AS `line_count`,
  `order_id`,
  CAST(NULL AS STRING) AS `qty`,
  CAST(NULL AS STRING) AS `sku`
FROM `orders.errors`
UNION ALL
SELECT
  `_cxl_dlq_source_file`,
  `_cxl_dlq_source_name`,
  `_cxl_dlq_source_row`,
  `_cxl_dlq_triggering_field`,
  `_cxl_dlq_triggering_value`,
  `_cxl_dlq_error_category`,
  `_cxl_dlq_error_detail`,
  `_cxl_dlq_stage`,
  `_cxl_dlq_route`,
  `_cxl_dlq_trigger`,
  `$source.order`,
  CAST(0 AS BIGINT) AS `$layout`,
  `customer`,
  `items`,
  CAST(NULL AS STRING) AS `line_count`,
  `order_id`,
  CAST(NULL AS STRING) AS `qty`,
  CAST(NULL AS STRING) AS `sku`
FROM `lines.errors`
UNION ALL
SELECT
  `_cxl_dlq_source_file`,
  `_cxl_dlq_source_name`,
  `_cxl_dlq_source_row`,
  `_cxl_dlq_triggering_field`,
  `_cxl_dlq_triggering_value`,
  `_cxl_dlq_error_category`,
  `_cxl_dlq_error_detail`,
  `_cxl_dlq_stage`,
  `_cxl_dlq_route`,
  `_cxl_dlq_trigger`,
  `$source.order`,
  CAST(1 AS BIGINT) AS `$layout`,
  `customer`,
  `items`,
  `line_count`,
  `order_id`,
  `qty`,
  `sku`
FROM `numbered.errors`;

-- checkpoint $pipeline.triggers; made after the writes, and only when they met a row that fails in numbered.checked, lines.checked (codegen/empty_dlq.py)
-- the runner materializes $pipeline.triggers as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- where each file's rows start: turns the positions in $source.row into row numbers for the DLQ (codegen/numbering.py)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.numbering` AS
SELECT
  CAST(0 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `orders.files` AS f
JOIN `orders.offsets` AS o
  ON f.`$file` = o.`$file`;

-- checkpoint $pipeline.numbering: chosen for speed, one pass over the files, made only when the DLQ has entries; a local run keeps its rows (one per file) in the driver: the DLQ's readers join them with no job; a local run that counted the rows of each file while writing them (up to 8 files a source) makes no pass; made after the writes, and only when they met a row that fails in numbered.checked, lines.checked (codegen/empty_dlq.py)
-- the runner materializes $pipeline.numbering as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- the DLQ: triggers and collaterals (row numbers from their positions: codegen/numbering.py)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.dlq` AS
SELECT
  `_cxl_dlq_source_file`,
  `_cxl_dlq_source_name`,
  CASE WHEN `$found` THEN `$number` ELSE `_cxl_dlq_source_row` END AS `_cxl_dlq_source_row`,
  `_cxl_dlq_triggering_field`,
  `_cxl_dlq_triggering_value`,
  `_cxl_dlq_error_category`,
  CASE
    WHEN `$found`
    THEN CASE
      WHEN STARTSWITH(
        `_cxl_dlq_error_detail`,
        CONCAT('row ', CAST(`_cxl_dlq_source_row` AS STRING), ': ')
      )
      THEN CONCAT(
        'row ',
        CAST(`$number` AS STRING),
        SUBSTRING(
          `_cxl_dlq_error_detail`,
          CAST(5 AS BIGINT) + LENGTH(CAST(`_cxl_dlq_source_row` AS STRING))
        )
      )
      WHEN LOCATE(
        CONCAT('" row=', CAST(`_cxl_dlq_source_row` AS STRING), ' column='),
        `_cxl_dlq_error_detail`
      ) > CAST(0 AS BIGINT)
      THEN OVERLAY(`_cxl_dlq_error_detail` PLACING CAST(`$number` AS STRING) FROM LOCATE(
        CONCAT('" row=', CAST(`_cxl_dlq_source_row` AS STRING), ' column='),
        `_cxl_dlq_error_detail`
      ) + CAST(6 AS BIGINT) FOR LENGTH(CAST(`_cxl_dlq_source_row` AS STRING)))
      ELSE `_cxl_dlq_error_detail`
    END
    ELSE `_cxl_dlq_error_detail`
  END AS `_cxl_dlq_error_detail`,
  `_cxl_dlq_stage`,
  `_cxl_dlq_route`,
  `_cxl_dlq_trigger`,
  `$source.order`,
  `$layout`,
  `customer`,
  `items`,
  `line_count`,
  `order_id`,
  `qty`,
  `sku`
FROM (
  SELECT /*+ BROADCAST(n) */
    e.*,
    NOT `n`.`$source.order` IS NULL AS `$found`,
    `n`.`$before` + `e`.`_cxl_dlq_source_row` % CAST(8589934592 AS BIGINT) - `n`.`$first` + CAST(1 AS BIGINT) AS `$number`
  FROM (
    SELECT
      `_cxl_dlq_source_file`,
      `_cxl_dlq_source_name`,
      `_cxl_dlq_source_row`,
      `_cxl_dlq_triggering_field`,
      `_cxl_dlq_triggering_value`,
      `_cxl_dlq_error_category`,
      `_cxl_dlq_error_detail`,
      `_cxl_dlq_stage`,
      `_cxl_dlq_route`,
      `_cxl_dlq_trigger`,
      `$source.order`,
      `$layout`,
      `customer`,
      `items`,
      `line_count`,
      `order_id`,
      `qty`,
      `sku`
    FROM `$pipeline.triggers`
  ) AS e
  LEFT JOIN `$pipeline.numbering` AS n
    ON `e`.`$source.order` = `n`.`$source.order`
    AND (
      `e`.`_cxl_dlq_source_row` DIV CAST(8589934592 AS BIGINT)
    ) = `n`.`$rank`
) AS numbered;

-- sink order_lines: write csv to ./out/order_lines.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/order_lines.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
    CASE
      WHEN `order_id` IS NULL
      THEN ''
      WHEN CONTAINS(`order_id`, ',')
      OR CONTAINS(`order_id`, '"')
      OR CONTAINS(`order_id`, '\n')
      OR CONTAINS(`order_id`, '\r')
      THEN CONCAT('"', REPLACE(`order_id`, '"', '""'), '"')
      ELSE `order_id`
    END,
    CASE
      WHEN `customer` IS NULL
      THEN ''
      WHEN CONTAINS(`customer`, ',')
      OR CONTAINS(`customer`, '"')
      OR CONTAINS(`customer`, '\n')
      OR CONTAINS(`customer`, '\r')
      THEN CONCAT('"', REPLACE(`customer`, '"', '""'), '"')
      ELSE `customer`
    END,
    CASE
      WHEN `items` IS NULL
      THEN ''
      WHEN CONTAINS(`items`, ',')
      OR CONTAINS(`items`, '"')
      OR CONTAINS(`items`, '\n')
      OR CONTAINS(`items`, '\r')
      THEN CONCAT('"', REPLACE(`items`, '"', '""'), '"')
      ELSE `items`
    END,
    COALESCE(CAST(`line_count` AS STRING), ''),
    CASE
      WHEN `sku` IS NULL
      THEN ''
      WHEN CONTAINS(`sku`, ',')
      OR CONTAINS(`sku`, '"')
      OR CONTAINS(`sku`, '\n')
      OR CONTAINS(`sku`, '\r')
      THEN CONCAT('"', REPLACE(`sku`, '"', '""'), '"')
      ELSE `sku`
    END,
    COALESCE(CAST(`qty` AS STRING), ''),
    COALESCE(CAST(`sku_number` AS STRING), '')
  ) AS value
FROM `order_lines.rows`
ORDER BY
  CASE
    WHEN `$source.order` IS NULL OR `$source.order` < CAST('-1' AS BIGINT)
    THEN CAST(0 AS BIGINT)
    WHEN `$source.order` > CAST(60 AS BIGINT)
    THEN CAST(9079256848778919936 AS BIGINT)
    ELSE SHIFTLEFT(`$source.order` + CAST(2 AS BIGINT), 57) + CASE
      WHEN `$source.row` IS NULL OR `$source.row` < CAST(0 AS BIGINT)
      THEN CAST(0 AS BIGINT)
      WHEN `$source.row` > CAST(144115188075855869 AS BIGINT)
      THEN CAST(144115188075855871 AS BIGINT)
      ELSE `$source.row` + CAST(1 AS BIGINT)
    END
  END,
  `$source.order`,
  `$source.row`,
  `$fan`;

-- DLQ: write ./out/dlq.csv with its header line; columns as the entries' layouts say (all one layout: its schema order, else the sorted union), decided by a window in the one partition the lines are sorted in: no extra job (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CASE
    WHEN `$file_layout` = CAST(0 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `customer`, `items`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `customer`, `items`, `line_count`, `sku`, `qty`)
    ELSE CONCAT_WS(',', `$fields`, `customer`, `items`, `line_count`, `order_id`, `qty`, `sku`)
  END AS value
FROM (
  SELECT
    *,
    CASE
      WHEN MIN(`$layout`) OVER () = MAX(`$layout`) OVER ()
      THEN MIN(`$layout`) OVER ()
    END AS `$file_layout`
  FROM (
    SELECT
      '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
      'customer' AS `customer`,
      'items' AS `items`,
      'line_count' AS `line_count`,
      'order_id' AS `order_id`,
      'qty' AS `qty`,
      'sku' AS `sku`,
      TRUE AS `$header`,
      NULL AS `$layout`,
      NULL AS `$source.order`,
      NULL AS `_cxl_dlq_source_row`
    UNION ALL
    SELECT
      CONCAT_WS(
        ',',
        COALESCE(UUID(), ''),
        COALESCE(DATE_FORMAT(CURRENT_TIMESTAMP(), 'yyyy-MM-dd\'T\'HH:mm:ss\'Z\''), ''),
        CASE
          WHEN `_cxl_dlq_source_file` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_source_file`, ',')
          OR CONTAINS(`_cxl_dlq_source_file`, '"')
          OR CONTAINS(`_cxl_dlq_source_file`, '\n')
          OR CONTAINS(`_cxl_dlq_source_file`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_source_file`, '"', '""'), '"')
          ELSE `_cxl_dlq_source_file`
        END,
        CASE
          WHEN `_cxl_dlq_source_name` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_source_name`, ',')
          OR CONTAINS(`_cxl_dlq_source_name`, '"')
          OR CONTAINS(`_cxl_dlq_source_name`, '\n')
          OR CONTAINS(`_cxl_dlq_source_name`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_source_name`, '"', '""'), '"')
          ELSE `_cxl_dlq_source_name`
        END,
        COALESCE(
          CAST(CASE
            WHEN `$source.order` = CAST('-1' AS BIGINT)
            THEN CAST(0 AS BIGINT)
            ELSE `_cxl_dlq_source_row`
          END AS STRING),
          ''
        ),
        CASE
          WHEN `_cxl_dlq_triggering_field` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_triggering_field`, ',')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '"')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '\n')
          OR CONTAINS(`_cxl_dlq_triggering_field`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_triggering_field`, '"', '""'), '"')
          ELSE `_cxl_dlq_triggering_field`
        END,
        CASE
          WHEN `_cxl_dlq_triggering_value` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_triggering_value`, ',')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '"')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '\n')
          OR CONTAINS(`_cxl_dlq_triggering_value`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_triggering_value`, '"', '""'), '"')
          ELSE `_cxl_dlq_triggering_value`
        END,
        CASE
          WHEN `_cxl_dlq_error_category` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_error_category`, ',')
          OR CONTAINS(`_cxl_dlq_error_category`, '"')
          OR CONTAINS(`_cxl_dlq_error_category`, '\n')
          OR CONTAINS(`_cxl_dlq_error_category`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_error_category`, '"', '""'), '"')
          ELSE `_cxl_dlq_error_category`
        END,
        CASE
          WHEN `_cxl_dlq_error_detail` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_error_detail`, ',')
          OR CONTAINS(`_cxl_dlq_error_detail`, '"')
          OR CONTAINS(`_cxl_dlq_error_detail`, '\n')
          OR CONTAINS(`_cxl_dlq_error_detail`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_error_detail`, '"', '""'), '"')
          ELSE `_cxl_dlq_error_detail`
        END,
        CASE
          WHEN `_cxl_dlq_stage` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_stage`, ',')
          OR CONTAINS(`_cxl_dlq_stage`, '"')
          OR CONTAINS(`_cxl_dlq_stage`, '\n')
          OR CONTAINS(`_cxl_dlq_stage`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_stage`, '"', '""'), '"')
          ELSE `_cxl_dlq_stage`
        END,
        CASE
          WHEN `_cxl_dlq_route` IS NULL
          THEN ''
          WHEN CONTAINS(`_cxl_dlq_route`, ',')
          OR CONTAINS(`_cxl_dlq_route`, '"')
          OR CONTAINS(`_cxl_dlq_route`, '\n')
          OR CONTAINS(`_cxl_dlq_route`, '\r')
          THEN CONCAT('"', REPLACE(`_cxl_dlq_route`, '"', '""'), '"')
          ELSE `_cxl_dlq_route`
        END,
        COALESCE(CAST(`_cxl_dlq_trigger` AS STRING), '')
      ) AS `$fields`,
      CASE
        WHEN `customer` IS NULL
        THEN ''
        WHEN CONTAINS(`customer`, ',')
        OR CONTAINS(`customer`, '"')
        OR CONTAINS(`customer`, '\n')
        OR CONTAINS(`customer`, '\r')
        THEN CONCAT('"', REPLACE(`customer`, '"', '""'), '"')
        ELSE `customer`
      END AS `customer`,
      CASE
        WHEN `items` IS NULL
        THEN ''
        WHEN CONTAINS(`items`, ',')
        OR CONTAINS(`items`, '"')
        OR CONTAINS(`items`, '\n')
        OR CONTAINS(`items`, '\r')
        THEN CONCAT('"', REPLACE(`items`, '"', '""'), '"')
        ELSE `items`
      END AS `items`,
      CASE
        WHEN `line_count` IS NULL
        THEN ''
        WHEN CONTAINS(`line_count`, ',')
        OR CONTAINS(`line_count`, '"')
        OR CONTAINS(`line_count`, '\n')
        OR CONTAINS(`line_count`, '\r')
        THEN CONCAT('"', REPLACE(`line_count`, '"', '""'), '"')
        ELSE `line_count`
      END AS `line_count`,
      CASE
        WHEN `order_id` IS NULL
        THEN ''
        WHEN CONTAINS(`order_id`, ',')
        OR CONTAINS(`order_id`, '"')
        OR CONTAINS(`order_id`, '\n')
        OR CONTAINS(`order_id`, '\r')
        THEN CONCAT('"', REPLACE(`order_id`, '"', '""'), '"')
        ELSE `order_id`
      END AS `order_id`,
      CASE
        WHEN `qty` IS NULL
        THEN ''
        WHEN CONTAINS(`qty`, ',')
        OR CONTAINS(`qty`, '"')
        OR CONTAINS(`qty`, '\n')
        OR CONTAINS(`qty`, '\r')
        THEN CONCAT('"', REPLACE(`qty`, '"', '""'), '"')
        ELSE `qty`
      END AS `qty`,
      CASE
        WHEN `sku` IS NULL
        THEN ''
        WHEN CONTAINS(`sku`, ',')
        OR CONTAINS(`sku`, '"')
        OR CONTAINS(`sku`, '\n')
        OR CONTAINS(`sku`, '\r')
        THEN CONCAT('"', REPLACE(`sku`, '"', '""'), '"')
        ELSE `sku`
      END AS `sku`,
      FALSE AS `$header`,
      `$layout`,
      `$source.order`,
      `_cxl_dlq_source_row`
    FROM `$pipeline.dlq`
  ) AS cells
) AS lines
ORDER BY
  `$header` DESC,
  `$source.order`,
  `_cxl_dlq_source_row`;

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
