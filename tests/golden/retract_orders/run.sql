-- clinker-sql 0.1.0: pipeline retract_orders
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

-- CXL to_string() of a Float, as Rust's shortest round-trip Display prints it: no exponent, no trailing `.0`. Spark writes Java's digits, plainly from 1e-3 to 1e7 (there only a trailing `.0` goes); outside that range a decimal of the right scale spells out its exponent.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_text(
    x DOUBLE
)
RETURNS STRING
RETURN CASE
  WHEN x IS NULL
  THEN CAST(NULL AS STRING)
  WHEN ISNAN(x)
  THEN 'NaN'
  WHEN x = CAST('Infinity' AS DOUBLE)
  THEN 'inf'
  WHEN x = CAST('-Infinity' AS DOUBLE)
  THEN '-inf'
  WHEN LOCATE('E', CAST(x AS STRING)) = 0
  THEN CASE
    WHEN CAST(x AS STRING) LIKE '%.0'
    THEN SUBSTRING(CAST(x AS STRING), 1, LENGTH(CAST(x AS STRING)) - 2)
    ELSE CAST(x AS STRING)
  END
  ELSE COALESCE(
    REGEXP_REPLACE(
      REGEXP_REPLACE(
        CASE
          WHEN ABS(x) >= CAST('1e+18' AS DOUBLE)
          THEN CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 0)) AS STRING)
          WHEN ABS(x) >= CAST('0.01' AS DOUBLE)
          THEN CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 18)) AS STRING)
          ELSE CAST(TRY_CAST(CAST(x AS STRING) AS DECIMAL(38, 37)) AS STRING)
        END,
        '(\\.[0-9]*?)0+$',
        '$1'
      ),
      '\\.$',
      ''
    ),
    CAST(x AS STRING)
  )
END;

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
  `line` AS `line`,
  `region` AS `region`,
  `dept` AS `dept`,
  `amount` AS `amount`,
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
  scan.`line`,
  scan.`region`,
  scan.`dept`,
  scan.`amount`,
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
--   scan.`line`,
--   scan.`region`,
--   scan.`dept`,
--   scan.`amount`,
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

-- source orders: every row typed
CREATE OR REPLACE TEMPORARY VIEW `orders.typed` AS
SELECT
  COALESCE(`order_id`, '') AS `order_id`,
  `$shared.0` AS `line`,
  COALESCE(`region`, '') AS `region`,
  COALESCE(`dept`, '') AS `dept`,
  COALESCE(`amount`, '') AS `amount`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  COALESCE(`order_id`, '') AS `$ck.order_id`,
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `line` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`line` AS BIGINT) END AS `$shared.0`
  FROM `orders.rows`
) AS `input`;

-- source orders: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `orders.carry` AS
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
  NOT COALESCE(
    (
      `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
    ),
    FALSE
  ) AS `$live`,
  CASE
    WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'line'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`line`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="orders" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=2 field="line" declared_type=Int: value "',
          COALESCE(`$raw`.`line`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'orders' AS `$node`,
      CAST(MAP(
        'order_id',
        `$raw`.`order_id`,
        'line',
        `$raw`.`line`,
        'region',
        `$raw`.`region`,
        'dept',
        `$raw`.`dept`,
        'amount',
        `$raw`.`amount`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `orders.typed`;

-- transform parse: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `parse.eval` AS
SELECT
  *,
  `order_id` AS `$out.order_id`,
  `region` AS `$out.region`,
  `dept` AS `$out.dept`,
  `$shared.0` AS `$out.amount`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;

-- transform parse: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `parse.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN NOT `amount` IS NULL AND (
        NOT `amount` IS NULL AND `$shared.0` IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          'field \'amount\': ',
          CXL_CONVERSION_FAILED(`amount`, 'Int')
        ) AS detail,
        'amount' AS field,
        `amount` AS value
      )
    END
  END AS `$err`
FROM `parse.eval`;

-- transform parse: every row, still live or not, with its DLQ entry (a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `parse.carry` AS
SELECT
  `$out.order_id` AS `order_id`,
  `line`,
  `$out.region` AS `region`,
  `$out.dept` AS `dept`,
  `$out.amount` AS `amount`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`,
  `$live` AND `$err` IS NULL AND `$keep` AS `$live`,
  CASE
    WHEN NOT `$err` IS NULL
    THEN STRUCT(
      `$source.file` AS `_cxl_dlq_source_file`,
      `$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      `$err`.`field` AS `_cxl_dlq_triggering_field`,
      `$err`.`value` AS `_cxl_dlq_triggering_value`,
      `$err`.`category` AS `_cxl_dlq_error_category`,
      `$err`.`detail` AS `_cxl_dlq_error_detail`,
      'transform:parse' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'parse' AS `$node`,
      CAST(MAP(
        'order_id',
        `order_id`,
        'line',
        CAST(`line` AS STRING),
        'region',
        `region`,
        'dept',
        `dept`,
        'amount',
        `amount`,
        '$ck.order_id',
        `$ck.order_id`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `parse.checked`;

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

-- checkpoint dept_totals.spec: chosen for speed, one pass gives parse.failed and, when nothing is retracted, the groups of dept_totals
-- the runner materializes dept_totals.spec as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once
-- it counts the rows of parse.failed as it writes them: the runner then makes no copy of those
-- and the rows dept_totals.finalize_errors has when nothing is retracted

-- transform parse: the rows of the fused chain orders -> parse that failed (read from dept_totals.spec)
CREATE OR REPLACE TEMPORARY VIEW `parse.failed` AS
SELECT
  FROM_JSON(
    `$fail.entry`,
    'STRUCT<`_cxl_dlq_source_file`: STRING, `_cxl_dlq_source_name`: STRING, `_cxl_dlq_source_row`: BIGINT, `_cxl_dlq_triggering_field`: STRING, `_cxl_dlq_triggering_value`: STRING, `_cxl_dlq_error_category`: STRING, `_cxl_dlq_error_detail`: STRING, `_cxl_dlq_stage`: STRING, `_cxl_dlq_route`: STRING, `_cxl_dlq_trigger`: BOOLEAN, `$source.order`: BIGINT, `$node`: STRING, `$payload`: MAP<STRING, STRING>>'
  ) AS `$dlq`
FROM `dept_totals.spec`
WHERE
  NOT `$fail` IS NULL;

-- checkpoint parse.failed: chosen for speed, the fused chain orders -> parse is evaluated once for the errors of all its nodes, and only the failing rows are written
-- the runner materializes parse.failed as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- transform parse: good rows
CREATE OR REPLACE TEMPORARY VIEW `parse` AS
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
  `$ck.order_id`
FROM `parse.carry`
WHERE
  `$live`;

-- transform orders: rows whose evaluation failed (read from parse.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `orders.errors` AS
SELECT
  `$dlq`.`_cxl_dlq_source_file` AS `_cxl_dlq_source_file`,
  `$dlq`.`_cxl_dlq_source_name` AS `_cxl_dlq_source_name`,
  `$dlq`.`_cxl_dlq_source_row` AS `_cxl_dlq_source_row`,
  `$dlq`.`_cxl_dlq_triggering_field` AS `_cxl_dlq_triggering_field`,
  `$dlq`.`_cxl_dlq_triggering_value` AS `_cxl_dlq_triggering_value`,
  `$dlq`.`_cxl_dlq_error_category` AS `_cxl_dlq_error_category`,
  `$dlq`.`_cxl_dlq_error_detail` AS `_cxl_dlq_error_detail`,
  `$dlq`.`_cxl_dlq_stage` AS `_cxl_dlq_stage`,
  `$dlq`.`_cxl_dlq_route` AS `_cxl_dlq_route`,
  `$dlq`.`_cxl_dlq_trigger` AS `_cxl_dlq_trigger`,
  `$dlq`.`$source.order` AS `$source.order`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['region'] AS `region`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['amount'] AS `amount`
FROM `parse.failed`
WHERE
  `$dlq`.`$node` = 'orders';

-- transform parse: rows whose evaluation failed (read from parse.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `parse.errors` AS
SELECT
  `$dlq`.`_cxl_dlq_source_file` AS `_cxl_dlq_source_file`,
  `$dlq`.`_cxl_dlq_source_name` AS `_cxl_dlq_source_name`,
  `$dlq`.`_cxl_dlq_source_row` AS `_cxl_dlq_source_row`,
  `$dlq`.`_cxl_dlq_triggering_field` AS `_cxl_dlq_triggering_field`,
  `$dlq`.`_cxl_dlq_triggering_value` AS `_cxl_dlq_triggering_value`,
  `$dlq`.`_cxl_dlq_error_category` AS `_cxl_dlq_error_category`,
  `$dlq`.`_cxl_dlq_error_detail` AS `_cxl_dlq_error_detail`,
  `$dlq`.`_cxl_dlq_stage` AS `_cxl_dlq_stage`,
  `$dlq`.`_cxl_dlq_route` AS `_cxl_dlq_route`,
  `$dlq`.`_cxl_dlq_trigger` AS `_cxl_dlq_trigger`,
  `$dlq`.`$source.order` AS `$source.order`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['region'] AS `region`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`
FROM `parse.failed`
WHERE
  `$dlq`.`$node` = 'parse';

-- aggregate dept_totals: retraction path (group_by omits correlation-key field(s) $ck.order_id); bindings BufferRequired, Reversible: per-row arguments
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.eval` AS
SELECT
  *,
  `amount` AS `$arg.0.0`,
  `amount` AS `$arg.1.0`,
  TRUE AS `$keep`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$err`
FROM `parse`;

-- aggregate dept_totals: the groups of dept_totals.spec, as if nothing were retracted (read for dept_totals.final when nothing is)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.spec_groups` AS
SELECT
  `region`,
  `dept`,
  `$agg.0`,
  `$agg.0.overflow`,
  `$agg.1`,
  `$agg.2`,
  `$first`,
  TRUE AS `$live`
FROM `dept_totals.spec`
WHERE
  `$fail` IS NULL;

-- aggregate dept_totals: input rows whose arguments failed
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'aggregate:dept_totals' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  CAST(`line` AS STRING) AS `line`,
  `region`,
  `dept`,
  CAST(`amount` AS STRING) AS `amount`,
  `$ck.order_id`
FROM `dept_totals.eval`
WHERE
  NOT `$err` IS NULL;

-- DLQ triggers that do not depend on the retraction state
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers_early` AS
SELECT
  `$dlq`.`_cxl_dlq_source_file` AS `_cxl_dlq_source_file`,
  `$dlq`.`_cxl_dlq_source_name` AS `_cxl_dlq_source_name`,
  `$dlq`.`_cxl_dlq_source_row` AS `_cxl_dlq_source_row`,
  `$dlq`.`_cxl_dlq_triggering_field` AS `_cxl_dlq_triggering_field`,
  `$dlq`.`_cxl_dlq_triggering_value` AS `_cxl_dlq_triggering_value`,
  `$dlq`.`_cxl_dlq_error_category` AS `_cxl_dlq_error_category`,
  `$dlq`.`_cxl_dlq_error_detail` AS `_cxl_dlq_error_detail`,
  `$dlq`.`_cxl_dlq_stage` AS `_cxl_dlq_stage`,
  `$dlq`.`_cxl_dlq_route` AS `_cxl_dlq_route`,
  `$dlq`.`_cxl_dlq_trigger` AS `_cxl_dlq_trigger`,
  `$dlq`.`$source.order` AS `$source.order`,
  CASE `$dlq`.`$node`
    WHEN 'orders'
    THEN CAST(0 AS BIGINT)
    WHEN 'parse'
    THEN CAST(1 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['$ck.aggregate.dept_totals'] AS `$ck.aggregate.dept_totals`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['largest'] AS `largest`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['orders'] AS `orders`,
  `$dlq`.`$payload`['rank'] AS `rank`,
  `$dlq`.`$payload`['region'] AS `region`,
  `$dlq`.`$payload`['region_total'] AS `region_total`,
  `$dlq`.`$payload`['total'] AS `total`
FROM `parse.failed`
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
  CAST(NULL AS STRING) AS `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `amount`,
  `dept`,
  CAST(NULL AS STRING) AS `largest`,
  `line`,
  `order_id`,
  CAST(NULL AS STRING) AS `orders`,
  CAST(NULL AS STRING) AS `rank`,
  `region`,
  CAST(NULL AS STRING) AS `region_total`,
  CAST(NULL AS STRING) AS `total`
FROM `dept_totals.errors`;

-- checkpoint $pipeline.triggers_early: chosen for speed, they are computed once: they seed the retraction and stay the same in every pass
-- the runner materializes $pipeline.triggers_early as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- retraction: the first pass retracts the cells of the triggers raised before any retraction-mode node
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.retracted` AS
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  CAST(NULL AS BIGINT) AS `$source.row`
FROM `$pipeline.triggers_early`
WHERE
  `_cxl_dlq_stage` <> 'source' AND NOT (
    COALESCE(`$ck.order_id`, '') = ''
  )
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  `_cxl_dlq_source_row` AS `$source.row`
FROM `$pipeline.triggers_early`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND NOT (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
  )
  AND `_cxl_dlq_source_name` <> '<merged>';

-- dept_totals: input rows, flagged when retracted (chosen for speed: broadcast joins, the retracted cells are few)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.input` AS
SELECT /*+ BROADCAST(cells),
  BROADCAST(single) */
  input.*,
  (
    NOT cells.`$hit` IS NULL OR NOT single.`$hit` IS NULL
  ) AS `$retracted`
FROM `dept_totals.eval` AS input
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$ck.order_id`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    `$source.row` IS NULL
) AS cells
  ON `cells`.`$source.name` = `input`.`$source.name`
  AND `cells`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`input`.`$ck.order_id`, '')
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$source.row`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    NOT `$source.row` IS NULL
) AS single
  ON single.`$source.name` = input.`$source.name`
  AND single.`$source.row` = input.`$source.row`;

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

-- checkpoint dept_totals.final: chosen for speed, a segment boundary: each retraction pass plans the views after it over this copy
-- the runner materializes dept_totals.final as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once
-- it counts the rows of dept_totals.finalize_errors as it writes them: none, and the runner defines those as empty

-- aggregate dept_totals: the groups' stable numbers (first-seen order over every input row)
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.index` AS
SELECT
  `$key.0`,
  `$key.1`,
  `$group.index`
FROM `dept_totals.final`;

-- aggregate dept_totals: good rows
CREATE OR REPLACE TEMPORARY VIEW `dept_totals` AS
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
  `$ck.aggregate.dept_totals`
FROM `dept_totals.final`
WHERE
  `$err` IS NULL;

-- aggregate dept_totals: groups whose finalize failed
CREATE OR REPLACE TEMPORARY VIEW `dept_totals.finalize_errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'aggregate:dept_totals' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `region`,
  `dept`,
  CAST(`total` AS STRING) AS `total`,
  CAST(`largest` AS STRING) AS `largest`,
  CAST(`orders` AS STRING) AS `orders`,
  CAST(`$ck.aggregate.dept_totals` AS STRING) AS `$ck.aggregate.dept_totals`
FROM `dept_totals.final`
WHERE
  NOT `$err` IS NULL;

-- ranked: input rows, flagged when retracted (chosen for speed: broadcast joins, the retracted cells are few)
CREATE OR REPLACE TEMPORARY VIEW `ranked.input` AS
SELECT /*+ BROADCAST(cells),
  BROADCAST(single) */
  input.*,
  (
    NOT cells.`$hit` IS NULL OR NOT single.`$hit` IS NULL
  ) AS `$retracted`
FROM `dept_totals` AS input
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$ck.order_id`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    `$source.row` IS NULL
) AS cells
  ON `cells`.`$source.name` = `input`.`$source.name`
  AND `cells`.`$ck.order_id` IS NOT DISTINCT FROM CAST(NULL AS STRING)
LEFT JOIN (
  SELECT DISTINCT
    `$source.name`,
    `$source.row`,
    TRUE AS `$hit`
  FROM `$pipeline.retracted`
  WHERE
    NOT `$source.row` IS NULL
) AS single
  ON single.`$source.name` = input.`$source.name`
  AND single.`$source.row` = input.`$source.row`;

-- transform ranked: the CXL, one column per emit (window in buffer mode: partitions recomputed over surviving rows)
CREATE OR REPLACE TEMPORARY VIEW `ranked.eval` AS
SELECT
  *,
  `region` AS `$out.region`,
  `dept` AS `$out.dept`,
  `total` AS `$out.total`,
  `largest` AS `$out.largest`,
  `orders` AS `$out.orders`,
  CASE
    WHEN `region` IS NULL OR `$retracted` IS NULL
    THEN CAST(NULL AS BIGINT)
    ELSE CAST(ROW_NUMBER() OVER (
      PARTITION BY `region`, `$retracted`
      ORDER BY `total` DESC, `$source.order` NULLS LAST, `$source.row` NULLS LAST
    ) AS BIGINT)
  END AS `$out.rank`,
  CASE
    WHEN `region` IS NULL OR `$retracted` IS NULL
    THEN CAST(NULL AS DOUBLE)
    ELSE CAST(SUM(CAST(`total` AS DOUBLE)) OVER (PARTITION BY `region`, `$retracted`) AS DOUBLE)
  END AS `$out.region_total`
FROM `ranked.input`;

-- checkpoint ranked.eval: chosen for speed, a segment boundary: each retraction pass plans the views after it over this copy
-- the runner materializes ranked.eval as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- transform ranked: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `ranked.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$retracted`
    THEN CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>)
    ELSE CASE
      WHEN `region` IS NULL OR `$retracted` IS NULL
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
FROM `ranked.eval`;

-- transform ranked: good rows
CREATE OR REPLACE TEMPORARY VIEW `ranked` AS
SELECT
  `$out.region` AS `region`,
  `$out.dept` AS `dept`,
  `$out.total` AS `total`,
  `$out.largest` AS `largest`,
  `$out.orders` AS `orders`,
  `$out.rank` AS `rank`,
  `$out.region_total` AS `region_total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`
FROM `ranked.checked`
WHERE
  `$err` IS NULL AND `$keep`;

-- transform ranked: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `ranked.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:ranked' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `region`,
  `dept`,
  CAST(`total` AS STRING) AS `total`,
  CAST(`largest` AS STRING) AS `largest`,
  CAST(`orders` AS STRING) AS `orders`,
  CAST(`$ck.aggregate.dept_totals` AS STRING) AS `$ck.aggregate.dept_totals`
FROM `ranked.checked`
WHERE
  NOT `$err` IS NULL;

-- sink report: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `report.rows` AS
SELECT
  `region`,
  `dept`,
  `total`,
  `largest`,
  `orders`,
  `rank`,
  `region_total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.aggregate.dept_totals`
FROM `ranked`;

-- DLQ triggers of the current pass
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers_live` AS
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
  `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `amount`,
  `dept`,
  `largest`,
  `line`,
  `order_id`,
  `orders`,
  `rank`,
  `region`,
  `region_total`,
  `total`
FROM `$pipeline.triggers_early`
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
  CAST(2 AS BIGINT) AS `$layout`,
  `$ck.aggregate.dept_totals`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  CAST(NULL AS STRING) AS `amount`,
  `dept`,
  `largest`,
  CAST(NULL AS STRING) AS `line`,
  CAST(NULL AS STRING) AS `order_id`,
  `orders`,
  CAST(NULL AS STRING) AS `rank`,
  `region`,
  CAST(NULL AS STRING) AS `region_total`,
  `total`
FROM `dept_totals.finalize_errors`
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
  CAST(2 AS BIGINT) AS `$layout`,
  `$ck.aggregate.dept_totals`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  CAST(NULL AS STRING) AS `amount`,
  `dept`,
  `largest`,
  CAST(NULL AS STRING) AS `line`,
  CAST(NULL AS STRING) AS `order_id`,
  `orders`,
  CAST(NULL AS STRING) AS `rank`,
  `region`,
  CAST(NULL AS STRING) AS `region_total`,
  `total`
FROM `ranked.errors`;

-- DLQ triggers of earlier passes (none before the first)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers_seen` AS
SELECT
  *
FROM `$pipeline.triggers_live`
WHERE
  FALSE;

-- DLQ triggers of every pass
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
SELECT DISTINCT
  *
FROM (
  SELECT
    *
  FROM `$pipeline.triggers_seen`
  UNION ALL
  SELECT
    *
  FROM `$pipeline.triggers_live`
) AS triggers;

-- retraction: what the next pass retracts
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.retract_candidates` AS
SELECT
  *
FROM `$pipeline.retracted`
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  CAST(NULL AS BIGINT) AS `$source.row`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source' AND NOT (
    COALESCE(`$ck.order_id`, '') = ''
  )
UNION
SELECT
  `_cxl_dlq_source_name` AS `$source.name`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  `_cxl_dlq_source_row` AS `$source.row`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND NOT (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
  )
  AND `_cxl_dlq_source_name` <> '<merged>'
UNION
SELECT /*+ BROADCAST(`h`) */
  `e`.`$source.name` AS `$source.name`,
  NULLIF(
    CAST(CASE WHEN NOT `e`.`$ck.order_id` IS NULL THEN `e`.`$ck.order_id` END AS STRING),
    ''
  ) AS `$ck.order_id`,
  CASE
    WHEN NOT `e`.`$ck.order_id` IS NULL
    THEN CAST(NULL AS BIGINT)
    ELSE `e`.`$source.row`
  END AS `$source.row`
FROM `dept_totals.eval` AS `e`
LEFT SEMI JOIN (
  SELECT
    `i`.`$key.0` AS `$key.0`,
    `i`.`$key.1` AS `$key.1`
  FROM `dept_totals.index` AS `i`
  JOIN (
    SELECT DISTINCT
      CAST(`$ck.aggregate.dept_totals` AS BIGINT) AS `idx`
    FROM `$pipeline.triggers`
    WHERE
      NOT `$ck.aggregate.dept_totals` IS NULL
  ) AS `f`
    ON `f`.`idx` = `i`.`$group.index`
) AS `h`
  ON `e`.`region` IS NOT DISTINCT FROM `h`.`$key.0`
  AND `e`.`dept` IS NOT DISTINCT FROM `h`.`$key.1`;

-- retraction fixpoint
-- in every pass the runner materializes $pipeline.triggers, then repeats the pass until $pipeline.retract_candidates adds nothing to $pipeline.retracted

-- correlation: (source, key) cells that hold a trigger
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_dirty` AS
SELECT DISTINCT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  NULLIF(`$ck.aggregate.dept_totals`, '') AS `$ck.aggregate.dept_totals`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
    OR NOT (
      COALESCE(`$ck.aggregate.dept_totals`, '') = ''
    )
  );

-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
SELECT
  CAST(0 AS BIGINT) AS `$sink`,
  CAST(3 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  NULLIF(CAST(`$ck.aggregate.dept_totals` AS STRING), '') AS `$ck.aggregate.dept_totals`,
  CAST(NULL AS STRING) AS `$payload.amount`,
  `dept` AS `$payload.dept`,
  CAST(`largest` AS STRING) AS `$payload.largest`,
  CAST(NULL AS STRING) AS `$payload.line`,
  CAST(NULL AS STRING) AS `$payload.order_id`,
  CAST(`orders` AS STRING) AS `$payload.orders`,
  CAST(`rank` AS STRING) AS `$payload.rank`,
  `region` AS `$payload.region`,
  CXL_FLOAT_TEXT(`region_total`) AS `$payload.region_total`,
  CAST(`total` AS STRING) AS `$payload.total`
FROM `report.rows`;

-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.order_id`,
  `$ck.aggregate.dept_totals`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.order_id` IS NULL OR NOT `$ck.aggregate.dept_totals` IS NULL
GROUP BY
  `$ck.order_id`,
  `$ck.aggregate.dept_totals`
HAVING
  COUNT(*) > 100000;

-- checkpoint $pipeline.ck_big: chosen for speed, the group sizes are counted once for every commit and the collateral entries; a local run first bounds the groups by a sketch of each correlated source's keys, counted while its rows are read, and makes no copy when no group can exceed the buffer
-- the runner materializes $pipeline.ck_big as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- correlation: groups over max_group_buffer (100000), with their first record
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_overflow` AS
SELECT
  members.`$ck.order_id`,
  members.`$ck.aggregate.dept_totals`,
  MIN(
    STRUCT(
      members.`$source.order` AS o,
      members.`$source.row` AS r,
      members.`$source.name` AS s
    )
  ) AS `$first`
FROM `$pipeline.ck_members` AS members
LEFT SEMI JOIN `$pipeline.ck_big` AS big
  ON `big`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  AND `big`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM `members`.`$ck.aggregate.dept_totals`
GROUP BY
  members.`$ck.order_id`,
  members.`$ck.aggregate.dept_totals`;

-- checkpoint $pipeline.ck_overflow: chosen for speed, the first records are found once for every commit and the collateral entries
-- the runner materializes $pipeline.ck_overflow as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- sink report: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `report.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `report.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON (
    `dirty`.`$source.name` = `rows`.`$source.name`
    OR `rows`.`$source.name` = '<merged>'
  )
  AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM CAST(NULL AS STRING)
  AND `dirty`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM NULLIF(CAST(`rows`.`$ck.aggregate.dept_totals` AS STRING), '')
LEFT ANTI JOIN (
  SELECT DISTINCT
    `_cxl_dlq_source_name` AS `$source.name`,
    `_cxl_dlq_source_row` AS `$source.row`
  FROM `$pipeline.triggers`
  WHERE
    `_cxl_dlq_stage` <> 'source'
    AND NOT (
      NOT (
        COALESCE(`$ck.order_id`, '') = ''
      )
      OR NOT (
        COALESCE(`$ck.aggregate.dept_totals`, '') = ''
      )
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM CAST(NULL AS STRING)
  AND `overflow`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM NULLIF(CAST(`rows`.`$ck.aggregate.dept_totals` AS STRING), '');

-- correlation: collateral DLQ entries (chosen for speed: broadcast joins of the small dirty and overflow cells; only the rows of hit groups are ranked)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_collateral` AS
WITH joined AS (
  SELECT /*+ BROADCAST(dirty),
    BROADCAST(overflow) */
    members.*,
    NOT dirty.`$source.name` IS NULL AS `$dirty`,
    overflow.`$first` AS `$first`
  FROM (
    SELECT
      CAST(0 AS BIGINT) AS `$sink`,
      CAST(3 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      CAST(NULL AS STRING) AS `$ck.order_id`,
      NULLIF(CAST(`$ck.aggregate.dept_totals` AS STRING), '') AS `$ck.aggregate.dept_totals`,
      CAST(NULL AS STRING) AS `$payload.amount`,
      `dept` AS `$payload.dept`,
      CAST(`largest` AS STRING) AS `$payload.largest`,
      CAST(NULL AS STRING) AS `$payload.line`,
      CAST(NULL AS STRING) AS `$payload.order_id`,
      CAST(`orders` AS STRING) AS `$payload.orders`,
      CAST(`rank` AS STRING) AS `$payload.rank`,
      `region` AS `$payload.region`,
      CXL_FLOAT_TEXT(`region_total`) AS `$payload.region_total`,
      CAST(`total` AS STRING) AS `$payload.total`
    FROM `report.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON (
      `dirty`.`$source.name` = `members`.`$source.name`
      OR `members`.`$source.name` = '<merged>'
    )
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
    AND `dirty`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM `members`.`$ck.aggregate.dept_totals`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
    AND `overflow`.`$ck.aggregate.dept_totals` IS NOT DISTINCT FROM `members`.`$ck.aggregate.dept_totals`
  WHERE
    NOT dirty.`$source.name` IS NULL OR NOT overflow.`$first` IS NULL
), hit AS (
  SELECT
    joined.*
  FROM joined
  LEFT ANTI JOIN `$pipeline.triggers` AS triggers
    ON triggers.`_cxl_dlq_source_name` = joined.`$source.name`
    AND triggers.`_cxl_dlq_source_row` = joined.`$source.row`
), flagged AS (
  SELECT
    hit.*,
    ROW_NUMBER() OVER (PARTITION BY hit.`$source.name`, hit.`$source.row` ORDER BY hit.`$sink`) AS `$copy`
  FROM hit
)
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_field`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_value`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN 'group_size_exceeded'
    ELSE 'correlated'
  END AS `_cxl_dlq_error_category`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN 'correlation group exceeds max_group_buffer (100000)'
    ELSE 'correlated with failure in group'
  END AS `_cxl_dlq_error_detail`,
  'correlation_commit' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  CASE
    WHEN NOT `$dirty`
    AND NOT `$first` IS NULL
    AND `$first`.`s` = `$source.name`
    AND `$first`.`r` = `$source.row`
    THEN TRUE
    ELSE FALSE
  END AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `$layout`,
  `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `$payload.amount` AS `amount`,
  `$payload.dept` AS `dept`,
  `$payload.largest` AS `largest`,
  `$payload.line` AS `line`,
  `$payload.order_id` AS `order_id`,
  `$payload.orders` AS `orders`,
  `$payload.rank` AS `rank`,
  `$payload.region` AS `region`,
  `$payload.region_total` AS `region_total`,
  `$payload.total` AS `total`
FROM flagged
WHERE
  `$copy` = 1;

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

-- checkpoint $pipeline.numbering: chosen for speed, one pass over the files, made only when the DLQ has entries; a local run keeps its rows (one per file) in the driver: the DLQ's readers join them with no job; a local run that counted the rows of each file while writing them (up to 8 files a source) makes no pass
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
  `$ck.aggregate.dept_totals`,
  `$ck.order_id`,
  `amount`,
  `dept`,
  `largest`,
  `line`,
  `order_id`,
  `orders`,
  `rank`,
  `region`,
  `region_total`,
  `total`
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
      `$ck.aggregate.dept_totals`,
      `$ck.order_id`,
      `amount`,
      `dept`,
      `largest`,
      `line`,
      `order_id`,
      `orders`,
      `rank`,
      `region`,
      `region_total`,
      `total`
    FROM `$pipeline.triggers`
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
      `$layout`,
      `$ck.aggregate.dept_totals`,
      `$ck.order_id`,
      `amount`,
      `dept`,
      `largest`,
      `line`,
      `order_id`,
      `orders`,
      `rank`,
      `region`,
      `region_total`,
      `total`
    FROM `$pipeline.ck_collateral`
  ) AS e
  LEFT JOIN `$pipeline.numbering` AS n
    ON `e`.`$source.order` = `n`.`$source.order`
    AND (
      `e`.`_cxl_dlq_source_row` DIV CAST(8589934592 AS BIGINT)
    ) = `n`.`$rank`
) AS numbered;

-- checkpoint $pipeline.dlq: chosen for speed, the collateral entries are computed once for the report and the DLQ file
-- the runner materializes $pipeline.dlq as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once
-- it has no row when $pipeline.triggers, $pipeline.ck_overflow have none: then the runner defines it as empty and makes no copy

-- sink report: write csv to ./out/report.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/report.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
    CASE
      WHEN `region` IS NULL
      THEN ''
      WHEN CONTAINS(`region`, ',')
      OR CONTAINS(`region`, '"')
      OR CONTAINS(`region`, '\n')
      OR CONTAINS(`region`, '\r')
      THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
      ELSE `region`
    END,
    CASE
      WHEN `dept` IS NULL
      THEN ''
      WHEN CONTAINS(`dept`, ',')
      OR CONTAINS(`dept`, '"')
      OR CONTAINS(`dept`, '\n')
      OR CONTAINS(`dept`, '\r')
      THEN CONCAT('"', REPLACE(`dept`, '"', '""'), '"')
      ELSE `dept`
    END,
    COALESCE(CAST(`total` AS STRING), ''),
    COALESCE(CAST(`largest` AS STRING), ''),
    COALESCE(CAST(`orders` AS STRING), ''),
    COALESCE(CAST(`rank` AS STRING), ''),
    COALESCE(CXL_FLOAT_TEXT(`region_total`), '')
  ) AS value
FROM `report.commit`
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
  `$source.row`;

-- DLQ: write ./out/dlq.csv with its header line; columns as the entries' layouts say (all one layout: its schema order, else the sorted union), decided by a window in the one partition the lines are sorted in: no extra job (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CASE
    WHEN `$file_layout` = CAST(0 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `region`, `dept`, `amount`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `region`, `dept`, `amount`, `$ck.order_id`)
    WHEN `$file_layout` = CAST(2 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `region`, `dept`, `total`, `largest`, `orders`, `$ck.aggregate.dept_totals`)
    WHEN `$file_layout` = CAST(3 AS BIGINT)
    THEN CONCAT_WS(
      ',',
      `$fields`,
      `region`,
      `dept`,
      `total`,
      `largest`,
      `orders`,
      `rank`,
      `region_total`,
      `$ck.aggregate.dept_totals`
    )
    ELSE CONCAT_WS(
      ',',
      `$fields`,
      `$ck.aggregate.dept_totals`,
      `$ck.order_id`,
      `amount`,
      `dept`,
      `largest`,
      `line`,
      `order_id`,
      `orders`,
      `rank`,
      `region`,
      `region_total`,
      `total`
    )
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
      '$ck.aggregate.dept_totals' AS `$ck.aggregate.dept_totals`,
      '$ck.order_id' AS `$ck.order_id`,
      'amount' AS `amount`,
      'dept' AS `dept`,
      'largest' AS `largest`,
      'line' AS `line`,
      'order_id' AS `order_id`,
      'orders' AS `orders`,
      'rank' AS `rank`,
      'region' AS `region`,
      'region_total' AS `region_total`,
      'total' AS `total`,
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
        WHEN `$ck.aggregate.dept_totals` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.aggregate.dept_totals`, ',')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '"')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '\n')
        OR CONTAINS(`$ck.aggregate.dept_totals`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.aggregate.dept_totals`, '"', '""'), '"')
        ELSE `$ck.aggregate.dept_totals`
      END AS `$ck.aggregate.dept_totals`,
      CASE
        WHEN `$ck.order_id` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.order_id`, ',')
        OR CONTAINS(`$ck.order_id`, '"')
        OR CONTAINS(`$ck.order_id`, '\n')
        OR CONTAINS(`$ck.order_id`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.order_id`, '"', '""'), '"')
        ELSE `$ck.order_id`
      END AS `$ck.order_id`,
      CASE
        WHEN `amount` IS NULL
        THEN ''
        WHEN CONTAINS(`amount`, ',')
        OR CONTAINS(`amount`, '"')
        OR CONTAINS(`amount`, '\n')
        OR CONTAINS(`amount`, '\r')
        THEN CONCAT('"', REPLACE(`amount`, '"', '""'), '"')
        ELSE `amount`
      END AS `amount`,
      CASE
        WHEN `dept` IS NULL
        THEN ''
        WHEN CONTAINS(`dept`, ',')
        OR CONTAINS(`dept`, '"')
        OR CONTAINS(`dept`, '\n')
        OR CONTAINS(`dept`, '\r')
        THEN CONCAT('"', REPLACE(`dept`, '"', '""'), '"')
        ELSE `dept`
      END AS `dept`,
      CASE
        WHEN `largest` IS NULL
        THEN ''
        WHEN CONTAINS(`largest`, ',')
        OR CONTAINS(`largest`, '"')
        OR CONTAINS(`largest`, '\n')
        OR CONTAINS(`largest`, '\r')
        THEN CONCAT('"', REPLACE(`largest`, '"', '""'), '"')
        ELSE `largest`
      END AS `largest`,
      CASE
        WHEN `line` IS NULL
        THEN ''
        WHEN CONTAINS(`line`, ',')
        OR CONTAINS(`line`, '"')
        OR CONTAINS(`line`, '\n')
        OR CONTAINS(`line`, '\r')
        THEN CONCAT('"', REPLACE(`line`, '"', '""'), '"')
        ELSE `line`
      END AS `line`,
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
        WHEN `orders` IS NULL
        THEN ''
        WHEN CONTAINS(`orders`, ',')
        OR CONTAINS(`orders`, '"')
        OR CONTAINS(`orders`, '\n')
        OR CONTAINS(`orders`, '\r')
        THEN CONCAT('"', REPLACE(`orders`, '"', '""'), '"')
        ELSE `orders`
      END AS `orders`,
      CASE
        WHEN `rank` IS NULL
        THEN ''
        WHEN CONTAINS(`rank`, ',')
        OR CONTAINS(`rank`, '"')
        OR CONTAINS(`rank`, '\n')
        OR CONTAINS(`rank`, '\r')
        THEN CONCAT('"', REPLACE(`rank`, '"', '""'), '"')
        ELSE `rank`
      END AS `rank`,
      CASE
        WHEN `region` IS NULL
        THEN ''
        WHEN CONTAINS(`region`, ',')
        OR CONTAINS(`region`, '"')
        OR CONTAINS(`region`, '\n')
        OR CONTAINS(`region`, '\r')
        THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
        ELSE `region`
      END AS `region`,
      CASE
        WHEN `region_total` IS NULL
        THEN ''
        WHEN CONTAINS(`region_total`, ',')
        OR CONTAINS(`region_total`, '"')
        OR CONTAINS(`region_total`, '\n')
        OR CONTAINS(`region_total`, '\r')
        THEN CONCAT('"', REPLACE(`region_total`, '"', '""'), '"')
        ELSE `region_total`
      END AS `region_total`,
      CASE
        WHEN `total` IS NULL
        THEN ''
        WHEN CONTAINS(`total`, ',')
        OR CONTAINS(`total`, '"')
        OR CONTAINS(`total`, '\n')
        OR CONTAINS(`total`, '\r')
        THEN CONCAT('"', REPLACE(`total`, '"', '""'), '"')
        ELSE `total`
      END AS `total`,
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

-- run summary counts (chosen for speed: with no row in $pipeline.triggers, $pipeline.ck_overflow and every source's rows counted while read, the runner knows them without this query)
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

-- run summary: what the sinks wrote (each sink's records have distinct row identities: a local run counts them as they are written and skips this query)
SELECT
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:report`,
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
    FROM `report.commit`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
