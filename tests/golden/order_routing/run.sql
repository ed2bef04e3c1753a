-- clinker-sql 0.1.0: pipeline order_routing
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

-- CXL round(n) / round_to(n) on a Float: (x * 10^n).round() / 10^n on the binary product, half away from zero; NaN when 10^n is 0.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_round(
    x DOUBLE,
    n BIGINT
)
RETURNS DOUBLE
RETURN CASE
  WHEN x IS NULL
  THEN NULL
  WHEN POWER(CAST('10.0' AS DOUBLE), n) = CAST('0.0' AS DOUBLE)
  THEN CAST('NaN' AS DOUBLE)
  ELSE ROUND(x * POWER(CAST('10.0' AS DOUBLE), n), 0) / POWER(CAST('10.0' AS DOUBLE), n)
END;

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

-- CXL to_int() / try_int() on a Float, and a Float used as an Int argument: Rust's `f as i64`, which truncates toward zero, saturates at the Int range and gives 0 for NaN.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_float_to_int(
    x DOUBLE
)
RETURNS BIGINT
RETURN CASE
  WHEN ISNAN(x)
  THEN CAST(0 AS BIGINT)
  WHEN x >= CAST('9.223372036854776e+18' AS DOUBLE)
  THEN CAST(9223372036854775807 AS BIGINT)
  WHEN x <= CAST('-9.223372036854776e+18' AS DOUBLE)
  THEN CAST('-9223372036854775808' AS BIGINT)
  ELSE CAST(x AS BIGINT)
END;

-- CXL to_float() / try_float() on a String: Rust's f64 grammar (no surrounding blanks, no hex, no trailing `d`/`f`; inf, infinity and nan in any case); NULL when it does not parse.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_string_to_float(
    s STRING
)
RETURNS DOUBLE
RETURN CASE
  WHEN COALESCE(s RLIKE '^[+-]?(?i:nan)\\z', FALSE)
  THEN CAST('NaN' AS DOUBLE)
  WHEN COALESCE(
    s RLIKE '^[+-]?([0-9]+[.]?[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))\\z',
    FALSE
  )
  THEN TRY_CAST(s AS DOUBLE)
END;

-- source orders: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `orders.scan`
USING CSV
OPTIONS ('path'='./data/orders.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source orders: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `orders.split` AS
SELECT
  `order_id` AS `order_id`,
  `line` AS `line`,
  `customer` AS `customer`,
  `amount` AS `amount`,
  `region` AS `region`,
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
  scan.`customer`,
  scan.`amount`,
  scan.`region`,
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
--   scan.`customer`,
--   scan.`amount`,
--   scan.`region`,
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
  COALESCE(`customer`, '') AS `customer`,
  COALESCE(`amount`, '') AS `amount`,
  COALESCE(`region`, '') AS `region`,
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
  `customer`,
  `amount`,
  `region`,
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
        'customer',
        `$raw`.`customer`,
        'amount',
        `$raw`.`amount`,
        'region',
        `$raw`.`region`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `orders.typed`;

-- transform price: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `price.eval` AS
SELECT
  *,
  `order_id` AS `$out.order_id`,
  `line` AS `$out.line`,
  CASE WHEN `customer` IS NULL OR `customer` = '' THEN 'unknown' ELSE `customer` END AS `$out.customer`,
  CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) AS `$out.cents`,
  UPPER(`region`) AS `$out.region`
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;

-- transform price: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `price.checked` AS
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
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`amount`, 'Float')) AS detail,
        CAST(NULL AS STRING) AS field,
        `amount` AS value
      )
      WHEN NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
      AND (
        NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
        AND CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CXL_CONVERSION_FAILED(
            CXL_FLOAT_TEXT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))),
            'Int'
          )
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        CXL_FLOAT_TEXT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) AS value
      )
    END
  END AS `$err`
FROM `price.eval`;

-- transform price: every row, still live or not, with its DLQ entry (a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `price.carry` AS
SELECT
  `$out.order_id` AS `order_id`,
  `$out.line` AS `line`,
  `$out.customer` AS `customer`,
  `amount`,
  `$out.region` AS `region`,
  `$out.cents` AS `cents`,
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
      'transform:price' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'price' AS `$node`,
      CAST(MAP(
        'order_id',
        `order_id`,
        'line',
        CAST(`line` AS STRING),
        'customer',
        `customer`,
        'amount',
        `amount`,
        'region',
        `region`,
        '$ck.order_id',
        `$ck.order_id`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `price.checked`;

-- checkpoint price.carry: chosen for speed, its errors and the branches of by_size each read it (the branch conditions are tested again, not the transform)
-- the runner materializes price.carry as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once
-- it counts the rows of price.failed as it writes them: none, and the runner defines those as empty; a checkpointed filter of it is read through this copy, with no copy of its own

-- transform price: the rows of the fused chain orders -> price that failed
CREATE OR REPLACE TEMPORARY VIEW `price.failed` AS
SELECT
  `$dlq`
FROM `price.carry`
WHERE
  NOT `$dlq` IS NULL;

-- checkpoint price.failed: chosen for speed, the fused chain orders -> price is evaluated once for the errors of all its nodes, and only the failing rows are written
-- the runner materializes price.failed as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- transform price: good rows
CREATE OR REPLACE TEMPORARY VIEW `price` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `price.carry`
WHERE
  `$live`;

-- transform orders: rows whose evaluation failed (read from price.failed, the fused chain's failing rows) (not run: no statement reads it)
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
  `$dlq`.`$payload`['customer'] AS `customer`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['region'] AS `region`
FROM `price.failed`
WHERE
  `$dlq`.`$node` = 'orders';

-- transform price: rows whose evaluation failed (read from price.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `price.errors` AS
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
  `$dlq`.`$payload`['customer'] AS `customer`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['region'] AS `region`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`
FROM `price.failed`
WHERE
  `$dlq`.`$node` = 'price';

-- route by_size (exclusive): conditions
CREATE OR REPLACE TEMPORARY VIEW `by_size.eval` AS
SELECT
  *,
  `cents` >= CAST(10000 AS BIGINT) AS `$when.big`,
  NOT COALESCE((
    `cents` >= CAST(10000 AS BIGINT)
  ), FALSE) AS `$when.small`
FROM `price`;

-- route by_size: branch big
CREATE OR REPLACE TEMPORARY VIEW `by_size.big` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `by_size.eval`
WHERE
  `$when.big`;

-- route by_size: branch small
CREATE OR REPLACE TEMPORARY VIEW `by_size.small` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `by_size.eval`
WHERE
  `$when.small`;

-- route by_size: rows whose condition failed to evaluate
CREATE OR REPLACE TEMPORARY VIEW `by_size.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CAST(NULL AS STRING) AS `_cxl_dlq_triggering_field`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`value` AS `_cxl_dlq_triggering_value`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`category` AS `_cxl_dlq_error_category`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>).`detail` AS `_cxl_dlq_error_detail`,
  'route_eval' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `order_id`,
  CAST(`line` AS STRING) AS `line`,
  `customer`,
  `amount`,
  `region`,
  CAST(`cents` AS STRING) AS `cents`,
  `$ck.order_id`
FROM `by_size.eval`
WHERE
  FALSE;

-- sink big: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `big.rows` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `by_size.big`;

-- sink small: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `small.rows` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `by_size.small`;

-- DLQ triggers: every node's error view
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
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
    WHEN 'price'
    THEN CAST(1 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['$ck.order_id'] AS `$ck.order_id`,
  `$dlq`.`$payload`['amount'] AS `amount`,
  `$dlq`.`$payload`['cents'] AS `cents`,
  `$dlq`.`$payload`['customer'] AS `customer`,
  `$dlq`.`$payload`['line'] AS `line`,
  `$dlq`.`$payload`['order_id'] AS `order_id`,
  `$dlq`.`$payload`['region'] AS `region`
FROM `price.failed`
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
  `$ck.order_id`,
  `amount`,
  `cents`,
  `customer`,
  `line`,
  `order_id`,
  `region`
FROM `by_size.errors`;

-- checkpoint $pipeline.triggers
-- the runner materializes $pipeline.triggers as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- correlation: (source, key) cells that hold a trigger
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_dirty` AS
SELECT DISTINCT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source'
  AND (
    NOT (
      COALESCE(`$ck.order_id`, '') = ''
    )
  );

-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
SELECT
  CAST(0 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  `amount` AS `$payload.amount`,
  CAST(`cents` AS STRING) AS `$payload.cents`,
  `customer` AS `$payload.customer`,
  CAST(`line` AS STRING) AS `$payload.line`,
  `order_id` AS `$payload.order_id`,
  `region` AS `$payload.region`
FROM `big.rows`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  `amount` AS `$payload.amount`,
  CAST(`cents` AS STRING) AS `$payload.cents`,
  `customer` AS `$payload.customer`,
  CAST(`line` AS STRING) AS `$payload.line`,
  `order_id` AS `$payload.order_id`,
  `region` AS `$payload.region`
FROM `small.rows`;

-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.order_id`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.order_id` IS NULL
GROUP BY
  `$ck.order_id`
HAVING
  COUNT(*) > 100000;

-- checkpoint $pipeline.ck_big: chosen for speed, the group sizes are counted once for every commit and the collateral entries; a local run first bounds the groups by a sketch of each correlated source's keys, counted while its rows are read, and makes no copy when no group can exceed the buffer
-- the runner materializes $pipeline.ck_big as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- correlation: groups over max_group_buffer (100000), with their first record
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_overflow` AS
SELECT
  members.`$ck.order_id`,
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
GROUP BY
  members.`$ck.order_id`;

-- checkpoint $pipeline.ck_overflow: chosen for speed, the first records are found once for every commit and the collateral entries
-- the runner materializes $pipeline.ck_overflow as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- sink big: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `big.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `big.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON `dirty`.`$source.name` = `rows`.`$source.name`
  AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '')
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
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '');

-- sink small: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `small.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `small.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON `dirty`.`$source.name` = `rows`.`$source.name`
  AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '')
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
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.order_id`, '');

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
      CAST(2 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
      `amount` AS `$payload.amount`,
      CAST(`cents` AS STRING) AS `$payload.cents`,
      `customer` AS `$payload.customer`,
      CAST(`line` AS STRING) AS `$payload.line`,
      `order_id` AS `$payload.order_id`,
      `region` AS `$payload.region`
    FROM `big.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  WHERE
    NOT dirty.`$source.name` IS NULL OR NOT overflow.`$first` IS NULL
  UNION ALL
  SELECT /*+ BROADCAST(dirty),
    BROADCAST(overflow) */
    members.*,
    NOT dirty.`$source.name` IS NULL AS `$dirty`,
    overflow.`$first` AS `$first`
  FROM (
    SELECT
      CAST(1 AS BIGINT) AS `$sink`,
      CAST(2 AS BIGINT) AS `$layout`,
      `$source.name`,
      `$source.file`,
      `$source.row`,
      `$source.order`,
      NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
      `amount` AS `$payload.amount`,
      CAST(`cents` AS STRING) AS `$payload.cents`,
      `customer` AS `$payload.customer`,
      CAST(`line` AS STRING) AS `$payload.line`,
      `order_id` AS `$payload.order_id`,
      `region` AS `$payload.region`
    FROM `small.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
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
  `$ck.order_id`,
  `$payload.amount` AS `amount`,
  `$payload.cents` AS `cents`,
  `$payload.customer` AS `customer`,
  `$payload.line` AS `line`,
  `$payload.order_id` AS `order_id`,
  `$payload.region` AS `region`
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
  `$ck.order_id`,
  `amount`,
  `cents`,
  `customer`,
  `line`,
  `order_id`,
  `region`
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
      `$ck.order_id`,
      `amount`,
      `cents`,
      `customer`,
      `line`,
      `order_id`,
      `region`
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
      `$ck.order_id`,
      `amount`,
      `cents`,
      `customer`,
      `line`,
      `order_id`,
      `region`
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

-- sink big: write csv to ./out/big.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/big.csv.clinker-staging' USING text
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
    COALESCE(CAST(`line` AS STRING), ''),
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
      WHEN `region` IS NULL
      THEN ''
      WHEN CONTAINS(`region`, ',')
      OR CONTAINS(`region`, '"')
      OR CONTAINS(`region`, '\n')
      OR CONTAINS(`region`, '\r')
      THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
      ELSE `region`
    END,
    COALESCE(CAST(`cents` AS STRING), '')
  ) AS value
FROM `big.commit`
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

-- sink small: write json to ./out/small.ndjson (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/small.ndjson.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  TO_JSON(
    STRUCT(
      `order_id` AS order_id,
      `line` AS line,
      `customer` AS customer,
      `amount` AS amount,
      `region` AS region,
      `cents` AS cents
    )
  ) AS value
FROM `small.commit`
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
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `customer`, `amount`, `region`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `customer`, `amount`, `region`, `$ck.order_id`)
    WHEN `$file_layout` = CAST(2 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `order_id`, `line`, `customer`, `amount`, `region`, `cents`, `$ck.order_id`)
    ELSE CONCAT_WS(',', `$fields`, `$ck.order_id`, `amount`, `cents`, `customer`, `line`, `order_id`, `region`)
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
      '$ck.order_id' AS `$ck.order_id`,
      'amount' AS `amount`,
      'cents' AS `cents`,
      'customer' AS `customer`,
      'line' AS `line`,
      'order_id' AS `order_id`,
      'region' AS `region`,
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
        WHEN `cents` IS NULL
        THEN ''
        WHEN CONTAINS(`cents`, ',')
        OR CONTAINS(`cents`, '"')
        OR CONTAINS(`cents`, '\n')
        OR CONTAINS(`cents`, '\r')
        THEN CONCAT('"', REPLACE(`cents`, '"', '""'), '"')
        ELSE `cents`
      END AS `cents`,
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
        WHEN `region` IS NULL
        THEN ''
        WHEN CONTAINS(`region`, ',')
        OR CONTAINS(`region`, '"')
        OR CONTAINS(`region`, '\n')
        OR CONTAINS(`region`, '\r')
        THEN CONCAT('"', REPLACE(`region`, '"', '""'), '"')
        ELSE `region`
      END AS `region`,
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
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:big`,
  COALESCE(SUM(`w1`), CAST(0 AS BIGINT)) AS `written:small`,
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
    FROM `big.commit`
    UNION ALL
    SELECT
      CAST(1 AS BIGINT) AS `sink`,
      `$source.name`,
      `$source.row`,
      `$source.order`
    FROM `small.commit`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
