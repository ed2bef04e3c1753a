-- clinker-sql 0.1.0: pipeline store_exports
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

-- source sales: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `sales.scan`
USING CSV
OPTIONS ('path'='./data/store_*.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source sales: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `sales.split` AS
SELECT
  `sale_id` AS `sale_id`,
  `sku` AS `sku`,
  `qty` AS `qty`,
  `unit_price` AS `unit_price`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `sales.scan`;

-- source sales: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `sales.files` AS
SELECT
  `$file`,
  REGEXP_REPLACE(`$file`, '^file:(//)?', '') AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `sales.split`
) AS f;

-- checkpoint sales.files: chosen for speed, a local run lists the files (no job); the rows read its copy as a broadcast
-- the runner materializes sales.files as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source sales: where each file starts in the row numbering
CREATE OR REPLACE TEMPORARY VIEW `sales.offsets` AS
WITH files AS (
  SELECT
    `$file`,
    MIN(`$mid` % CAST(8589934592 AS BIGINT)) AS `$first`,
    COUNT(*) AS `$rows`
  FROM `sales.split`
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

-- source sales: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `sales.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`sale_id`,
  scan.`sku`,
  scan.`qty`,
  scan.`unit_price`,
  'sales' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(0 AS BIGINT) AS `$source.order`
FROM `sales.split` AS scan
JOIN `sales.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `sales.rows` AS
-- SELECT
--   scan.`sale_id`,
--   scan.`sku`,
--   scan.`qty`,
--   scan.`unit_price`,
--   'sales' AS `$source.name`,
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
--         FROM `sales.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `sales.split`
-- ) AS scan;

-- source sales: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `sales.bytes`
USING TEXT
OPTIONS ('path'='./data/store_*.csv');

-- source sales: bytes that are not UTF-8 fail the run (run only when a row read held U+FFFD, or the rows were not counted)
SELECT
  CONCAT(
    'source "sales": file "',
    REGEXP_REPLACE(`$file`, '^file:(//)?', ''),
    '": input is not valid UTF-8. Declare the source\'s character set (e.g. `encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire'
  ) AS `detail`
FROM (
  SELECT
    MIN(`$file`) AS `$file`
  FROM (
    SELECT
      INPUT_FILE_NAME() AS `$file`
    FROM `sales.bytes`
    WHERE
      NOT IS_VALID_UTF8(`value`)
  ) AS `lines`
) AS `bad`
WHERE
  NOT `$file` IS NULL;

-- source sales: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `sales.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `sales.offsets`;

-- source sales: every row typed
CREATE OR REPLACE TEMPORARY VIEW `sales.typed` AS
SELECT
  COALESCE(`sale_id`, '') AS `sale_id`,
  COALESCE(`sku`, '') AS `sku`,
  `$shared.0` AS `qty`,
  COALESCE(`unit_price`, '') AS `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `qty` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`qty` AS BIGINT) END AS `$shared.0`
  FROM `sales.rows`
) AS `input`;

-- source sales: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `sales.carry` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT COALESCE(
    (
      `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
    ),
    FALSE
  ) AS `$live`,
  CASE
    WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'qty'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`qty`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="sales" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=3 field="qty" declared_type=Int: value "',
          COALESCE(`$raw`.`qty`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'sales' AS `$node`,
      CAST(MAP(
        'sale_id',
        `$raw`.`sale_id`,
        'sku',
        `$raw`.`sku`,
        'qty',
        `$raw`.`qty`,
        'unit_price',
        `$raw`.`unit_price`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `sales.typed`;

-- transform priced: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `priced.eval` AS
SELECT
  *,
  `$shared.0` * CAST(`qty` AS DOUBLE) AS `$out.total`
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`unit_price`) AS `$shared.0`
  FROM `sales.carry`
) AS `input`;

-- transform priced: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `priced.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN NOT `unit_price` IS NULL
      AND (
        NOT `unit_price` IS NULL AND `$shared.0` IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CXL_CONVERSION_FAILED(`unit_price`, 'Float')
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        `unit_price` AS value
      )
    END
  END AS `$err`
FROM `priced.eval`;

-- transform priced: every row, still live or not, with its DLQ entry (a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `priced.carry` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `$out.total` AS `total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
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
      'transform:priced' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'priced' AS `$node`,
      CAST(MAP('sale_id', `sale_id`, 'sku', `sku`, 'qty', CAST(`qty` AS STRING), 'unit_price', `unit_price`) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `priced.checked`;

-- transform priced: the rows of the fused chain sales -> priced that failed
CREATE OR REPLACE TEMPORARY VIEW `priced.failed` AS
SELECT
  `$dlq`
FROM `priced.carry`
WHERE
  NOT `$dlq` IS NULL;

-- checkpoint priced.failed: chosen for speed, the fused chain sales -> priced is evaluated once for the errors of all its nodes, and only the failing rows are written; made after the writes, and only when they met a row that fails in priced.carry (codegen/empty_dlq.py)
-- the runner materializes priced.failed as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- transform priced: good rows
CREATE OR REPLACE TEMPORARY VIEW `priced` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `priced.carry`
WHERE
  `$live`;

-- transform sales: rows whose evaluation failed (read from priced.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `sales.errors` AS
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
  `$dlq`.`$payload`['sale_id'] AS `sale_id`,
  `$dlq`.`$payload`['sku'] AS `sku`,
  `$dlq`.`$payload`['qty'] AS `qty`,
  `$dlq`.`$payload`['unit_price'] AS `unit_price`
FROM `priced.failed`
WHERE
  `$dlq`.`$node` = 'sales';

-- transform priced: rows whose evaluation failed (read from priced.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `priced.errors` AS
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
  `$dlq`.`$payload`['sale_id'] AS `sale_id`,
  `$dlq`.`$payload`['sku'] AS `sku`,
  `$dlq`.`$payload`['qty'] AS `qty`,
  `$dlq`.`$payload`['unit_price'] AS `unit_price`
FROM `priced.failed`
WHERE
  `$dlq`.`$node` = 'priced';

-- sink export: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `export.rows` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `priced`;

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
    WHEN 'sales'
    THEN CAST(0 AS BIGINT)
    WHEN 'priced'
    THEN CAST(0 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['sale_id'] AS `sale_id`,
  `$dlq`.`$payload`['sku'] AS `sku`,
  `$dlq`.`$payload`['qty'] AS `qty`,
  `$dlq`.`$payload`['unit_price'] AS `unit_price`
FROM `priced.failed`;

-- checkpoint $pipeline.triggers; made after the writes, and only when they met a row that fails in priced.carry (codegen/empty_dlq.py)
-- the runner materializes $pipeline.triggers as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- where each file's rows start: turns the positions in $source.row into row numbers for the DLQ (codegen/numbering.py)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.numbering` AS
SELECT
  CAST(0 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `sales.files` AS f
JOIN `sales.offsets` AS o
  ON f.`$file` = o.`$file`;

-- checkpoint $pipeline.numbering: chosen for speed, one pass over the files, made only when the DLQ has entries; a local run keeps its rows (one per file) in the driver: the DLQ's readers join them with no job; a local run that counted the rows of each file while writing them (up to 8 files a source) makes no pass; made after the writes, and only when they met a row that fails in priced.carry (codegen/empty_dlq.py)
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
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`
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
      `sale_id`,
      `sku`,
      `qty`,
      `unit_price`
    FROM `$pipeline.triggers`
  ) AS e
  LEFT JOIN `$pipeline.numbering` AS n
    ON `e`.`$source.order` = `n`.`$source.order`
    AND (
      `e`.`_cxl_dlq_source_row` DIV CAST(8589934592 AS BIGINT)
    ) = `n`.`$rank`
) AS numbered;

-- sink export: write csv to ./out/{source_file}_export.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py); each line framed with its source file, whose own output file it goes to when the output is assembled (runtime/outputs.py)
INSERT OVERWRITE DIRECTORY './out/_source_file__export.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT(
    CAST(LENGTH(`$source.file`) AS STRING),
    ':',
    `$source.file`,
    CAST(LENGTH(`$line`) AS STRING),
    ':',
    `$line`
  ) AS value
FROM (
  SELECT
    *,
    CONCAT_WS(
      ',',
      CASE
        WHEN `sale_id` IS NULL
        THEN ''
        WHEN CONTAINS(`sale_id`, ',')
        OR CONTAINS(`sale_id`, '"')
        OR CONTAINS(`sale_id`, '\n')
        OR CONTAINS(`sale_id`, '\r')
        THEN CONCAT('"', REPLACE(`sale_id`, '"', '""'), '"')
        ELSE `sale_id`
      END,
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
      CASE
        WHEN `unit_price` IS NULL
        THEN ''
        WHEN CONTAINS(`unit_price`, ',')
        OR CONTAINS(`unit_price`, '"')
        OR CONTAINS(`unit_price`, '\n')
        OR CONTAINS(`unit_price`, '\r')
        THEN CONCAT('"', REPLACE(`unit_price`, '"', '""'), '"')
        ELSE `unit_price`
      END,
      COALESCE(CXL_FLOAT_TEXT(`total`), '')
    ) AS `$line`
  FROM `export.rows`
) AS lines
ORDER BY
  `lines`.`$source.file` NULLS LAST,
  `lines`.`sku` ASC NULLS LAST,
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

-- DLQ: write ./out/dlq.csv with its header line; one record layout (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(',', `$fields`, `sale_id`, `sku`, `qty`, `unit_price`) AS value
FROM (
  SELECT
    '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
    'sale_id' AS `sale_id`,
    'sku' AS `sku`,
    'qty' AS `qty`,
    'unit_price' AS `unit_price`,
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
      WHEN `sale_id` IS NULL
      THEN ''
      WHEN CONTAINS(`sale_id`, ',')
      OR CONTAINS(`sale_id`, '"')
      OR CONTAINS(`sale_id`, '\n')
      OR CONTAINS(`sale_id`, '\r')
      THEN CONCAT('"', REPLACE(`sale_id`, '"', '""'), '"')
      ELSE `sale_id`
    END AS `sale_id`,
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
      WHEN `unit_price` IS NULL
      THEN ''
      WHEN CONTAINS(`unit_price`, ',')
      OR CONTAINS(`unit_price`, '"')
      OR CONTAINS(`unit_price`, '\n')
      OR CONTAINS(`unit_price`, '\r')
      THEN CONCAT('"', REPLACE(`unit_price`, '"', '""'), '"')
      ELSE `unit_price`
    END AS `unit_price`,
    FALSE AS `$header`,
    `$layout`,
    `$source.order`,
    `_cxl_dlq_source_row`
  FROM `$pipeline.dlq`
) AS lines
ORDER BY
  `$header` DESC,
  `$source.order`,
  `_cxl_dlq_source_row`;

-- run summary counts (chosen for speed: with no row in $pipeline.triggers and every source's rows counted while read, the runner knows them without this query), after the writes: they count the rows that fail in priced.carry, and with none the DLQ is empty and not computed (codegen/empty_dlq.py)
SELECT
  (
    SELECT
      `$rows`
    FROM `sales.total`
  ) AS `total:sales`,
  `dlq:sales`,
  `dlq_rows:sales`,
  `dlq_triggers:sales`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'sales' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:sales`,
    COUNT_IF(`n` = 'sales' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:sales`,
    COUNT_IF(`n` = 'sales' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:sales`,
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
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:export`,
  COUNT(*) AS `ok`,
  COUNT_IF(`$source.name` = 'sales' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:sales`
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
    FROM `export.rows`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
