-- clinker-sql 0.1.0: pipeline employee_tiers
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

-- CXL to_int() / try_int() on a String: Rust's strict i64 parse (an optional sign and digits, nothing else, no blanks); NULL when it does not parse or is out of range.
CREATE OR REPLACE TEMPORARY FUNCTION cxl_string_to_int(
    s STRING
)
RETURNS BIGINT
RETURN CASE WHEN COALESCE(s RLIKE '^[+-]?[0-9]+\\z', FALSE) THEN TRY_CAST(s AS BIGINT) END;

-- source employees: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `employees.scan`
USING CSV
OPTIONS ('path'='./data/employees.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source employees: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `employees.split` AS
SELECT
  `id` AS `id`,
  `name` AS `name`,
  `dept` AS `dept`,
  `salary` AS `salary`,
  `hired` AS `hired`,
  `bonus_pct` AS `bonus_pct`,
  `active` AS `active`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `employees.scan`;

-- source employees: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `employees.files` AS
SELECT
  `$file`,
  './data/employees.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `employees.split`
) AS f;

-- checkpoint employees.files: chosen for speed, a local run lists the files (no job); the rows read its copy as a broadcast
-- the runner materializes employees.files as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source employees: where each file starts in the row numbering
CREATE OR REPLACE TEMPORARY VIEW `employees.offsets` AS
WITH files AS (
  SELECT
    `$file`,
    MIN(`$mid` % CAST(8589934592 AS BIGINT)) AS `$first`,
    COUNT(*) AS `$rows`
  FROM `employees.split`
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

-- source employees: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `employees.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`id`,
  scan.`name`,
  scan.`dept`,
  scan.`salary`,
  scan.`hired`,
  scan.`bonus_pct`,
  scan.`active`,
  'employees' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(0 AS BIGINT) AS `$source.order`
FROM `employees.split` AS scan
JOIN `employees.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `employees.rows` AS
-- SELECT
--   scan.`id`,
--   scan.`name`,
--   scan.`dept`,
--   scan.`salary`,
--   scan.`hired`,
--   scan.`bonus_pct`,
--   scan.`active`,
--   'employees' AS `$source.name`,
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
--         FROM `employees.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `employees.split`
-- ) AS scan;

-- source employees: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `employees.bytes`
USING TEXT
OPTIONS ('path'='./data/employees.csv');

-- source employees: bytes that are not UTF-8 fail the run (run only when a row read held U+FFFD, or the rows were not counted)
SELECT
  CONCAT(
    'source "employees": file "',
    './data/employees.csv',
    '": input is not valid UTF-8. Declare the source\'s character set (e.g. `encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire'
  ) AS `detail`
FROM (
  SELECT
    MIN(`$file`) AS `$file`
  FROM (
    SELECT
      INPUT_FILE_NAME() AS `$file`
    FROM `employees.bytes`
    WHERE
      NOT IS_VALID_UTF8(`value`)
  ) AS `lines`
) AS `bad`
WHERE
  NOT `$file` IS NULL;

-- source employees: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `employees.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `employees.offsets`;

-- source employees: every row typed
CREATE OR REPLACE TEMPORARY VIEW `employees.typed` AS
SELECT
  `$shared.0` AS `id`,
  COALESCE(`name`, '') AS `name`,
  COALESCE(`dept`, '') AS `dept`,
  COALESCE(`salary`, '') AS `salary`,
  CASE
    WHEN `hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y-M-d') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M/d/y') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'y/M/d') AS DATE)
    WHEN `hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
    THEN TRY_CAST(TRY_TO_TIMESTAMP(`hired`, 'M-d-y') AS DATE)
  END AS `hired`,
  CASE
    WHEN `bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`bonus_pct` AS DOUBLE))
      OR ABS(TRY_CAST(`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
    )
    THEN TRY_CAST(`bonus_pct` AS DOUBLE)
  END AS `bonus_pct`,
  CASE
    WHEN LOWER(`active`) IN ('true', 'yes', '1', 'on')
    THEN TRUE
    WHEN LOWER(`active`) IN ('false', 'no', '0', 'off')
    THEN FALSE
  END AS `active`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  STRUCT(*) AS `$raw`
FROM (
  SELECT
    *,
    CASE WHEN `id` RLIKE '^[+-]?[0-9]+\\z' THEN TRY_CAST(`id` AS BIGINT) END AS `$shared.0`
  FROM `employees.rows`
) AS `input`;

-- source employees: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `employees.carry` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT (
    COALESCE((
      `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
    ), FALSE)
    OR COALESCE(
      (
        `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
      ),
      FALSE
    )
  ) AS `$live`,
  CASE
    WHEN (
      `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
    )
    OR (
      `$raw`.`hired` IS NULL
      OR `$raw`.`hired` = ''
      OR CASE
        WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
        WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
      END IS NULL
    )
    OR (
      NOT (
        `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
      )
      AND CASE
        WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
        AND NOT (
          ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
          OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
        )
        THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
      END IS NULL
    )
    OR (
      `$raw`.`active` IS NULL
      OR `$raw`.`active` = ''
      OR CASE
        WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
        THEN TRUE
        WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
        THEN FALSE
      END IS NULL
    )
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'id'
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN 'hired'
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN 'bonus_pct'
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN 'active'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`id`, '')
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN COALESCE(`$raw`.`hired`, '')
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN COALESCE(`$raw`.`bonus_pct`, '')
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN COALESCE(`$raw`.`active`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`id` IS NULL OR `$raw`.`id` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=1 field="id" declared_type=Int: value "',
          COALESCE(`$raw`.`id`, ''),
          '" is not a valid Int'
        )
        WHEN `$raw`.`hired` IS NULL
        OR `$raw`.`hired` = ''
        OR CASE
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y-M-d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M/d/y') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'y/M/d') AS DATE)
          WHEN `$raw`.`hired` RLIKE '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}\\z'
          THEN TRY_CAST(TRY_TO_TIMESTAMP(`$raw`.`hired`, 'M-d-y') AS DATE)
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=5 field="hired" declared_type=Date: value "',
          COALESCE(`$raw`.`hired`, ''),
          '" is not a valid Date'
        )
        WHEN NOT (
          `$raw`.`bonus_pct` IS NULL OR `$raw`.`bonus_pct` = ''
        )
        AND CASE
          WHEN `$raw`.`bonus_pct` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE))
            OR ABS(TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`$raw`.`bonus_pct` AS DOUBLE)
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=6 field="bonus_pct" declared_type=Float: value "',
          COALESCE(`$raw`.`bonus_pct`, ''),
          '" is not a valid Float'
        )
        WHEN `$raw`.`active` IS NULL
        OR `$raw`.`active` = ''
        OR CASE
          WHEN LOWER(`$raw`.`active`) IN ('true', 'yes', '1', 'on')
          THEN TRUE
          WHEN LOWER(`$raw`.`active`) IN ('false', 'no', '0', 'off')
          THEN FALSE
        END IS NULL
        THEN CONCAT(
          '[E126] source="employees" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=7 field="active" declared_type=Bool: value "',
          COALESCE(`$raw`.`active`, ''),
          '" is not a valid Bool'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'employees' AS `$node`,
      CAST(MAP(
        'id',
        `$raw`.`id`,
        'name',
        `$raw`.`name`,
        'dept',
        `$raw`.`dept`,
        'salary',
        `$raw`.`salary`,
        'hired',
        `$raw`.`hired`,
        'bonus_pct',
        `$raw`.`bonus_pct`,
        'active',
        `$raw`.`active`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `employees.typed`;

-- transform enrich: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `enrich.eval` AS
SELECT
  *,
  UPPER(REGEXP_REPLACE(`name`, '(?U)^\\s+|\\s+$', '')) AS `$out.name`,
  `$shared.0` AS `$out.salary`,
  CASE
    WHEN `$shared.0` >= CAST(100000 AS BIGINT)
    THEN 'principal'
    WHEN `$shared.0` >= CAST(80000 AS BIGINT)
    THEN 'senior'
    ELSE 'staff'
  END AS `$out.tier`,
  CXL_FLOAT_ROUND(CAST(`$shared.0` AS DOUBLE) * COALESCE(`bonus_pct`, CAST('0.0' AS DOUBLE)), CAST(2 AS BIGINT)) AS `$out.bonus`,
  CAST(YEAR(`hired`) AS BIGINT) AS `$out.hired_year`,
  CASE `dept` WHEN 'eng' THEN 'Engineering' WHEN 'ops' THEN 'Operations' ELSE 'Other' END AS `$out.team`,
  COALESCE(`active`, FALSE) AS `$keep`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`salary`) AS `$shared.0`
  FROM `employees.carry`
) AS `input`;

-- transform enrich: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `enrich.checked` AS
SELECT
  *,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN `active`
      AND (
        NOT `salary` IS NULL AND (
          NOT `salary` IS NULL AND `$shared.0` IS NULL
        )
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`salary`, 'Int')) AS detail,
        CAST(NULL AS STRING) AS field,
        `salary` AS value
      )
    END
  END AS `$err`
FROM `enrich.eval`;

-- transform enrich: every row, still live or not, with its DLQ entry (a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `enrich.carry` AS
SELECT
  `id`,
  `$out.name` AS `name`,
  `dept`,
  `$out.salary` AS `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `$out.tier` AS `tier`,
  `$out.bonus` AS `bonus`,
  `$out.hired_year` AS `hired_year`,
  `$out.team` AS `team`,
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
      'transform:enrich' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'enrich' AS `$node`,
      CAST(MAP(
        'id',
        CAST(`id` AS STRING),
        'name',
        `name`,
        'dept',
        `dept`,
        'salary',
        `salary`,
        'hired',
        CAST(`hired` AS STRING),
        'bonus_pct',
        CXL_FLOAT_TEXT(`bonus_pct`),
        'active',
        CAST(`active` AS STRING)
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `enrich.checked`;

-- transform enrich: the rows of the fused chain employees -> enrich that failed
CREATE OR REPLACE TEMPORARY VIEW `enrich.failed` AS
SELECT
  `$dlq`
FROM `enrich.carry`
WHERE
  NOT `$dlq` IS NULL;

-- checkpoint enrich.failed: chosen for speed, the fused chain employees -> enrich is evaluated once for the errors of all its nodes, and only the failing rows are written; when the writes run first (a local run), read from what the write of sink roster split off (codegen/split_write.py); made after the writes, and only when they met a row that fails in enrich.carry (codegen/empty_dlq.py)
-- the runner materializes enrich.failed as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- transform enrich: good rows
CREATE OR REPLACE TEMPORARY VIEW `enrich` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `tier`,
  `bonus`,
  `hired_year`,
  `team`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `enrich.carry`
WHERE
  `$live`;

-- transform employees: rows whose evaluation failed (read from enrich.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `employees.errors` AS
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
  `$dlq`.`$payload`['id'] AS `id`,
  `$dlq`.`$payload`['name'] AS `name`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['salary'] AS `salary`,
  `$dlq`.`$payload`['hired'] AS `hired`,
  `$dlq`.`$payload`['bonus_pct'] AS `bonus_pct`,
  `$dlq`.`$payload`['active'] AS `active`
FROM `enrich.failed`
WHERE
  `$dlq`.`$node` = 'employees';

-- transform enrich: rows whose evaluation failed (read from enrich.failed, the fused chain's failing rows) (not run: no statement reads it)
CREATE OR REPLACE TEMPORARY VIEW `enrich.errors` AS
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
  `$dlq`.`$payload`['id'] AS `id`,
  `$dlq`.`$payload`['name'] AS `name`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['salary'] AS `salary`,
  `$dlq`.`$payload`['hired'] AS `hired`,
  `$dlq`.`$payload`['bonus_pct'] AS `bonus_pct`,
  `$dlq`.`$payload`['active'] AS `active`
FROM `enrich.failed`
WHERE
  `$dlq`.`$node` = 'enrich';

-- sink roster: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `roster.rows` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `tier`,
  `bonus`,
  `hired_year`,
  `team`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `enrich`;

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
    WHEN 'employees'
    THEN CAST(0 AS BIGINT)
    WHEN 'enrich'
    THEN CAST(0 AS BIGINT)
  END AS `$layout`,
  `$dlq`.`$payload`['id'] AS `id`,
  `$dlq`.`$payload`['name'] AS `name`,
  `$dlq`.`$payload`['dept'] AS `dept`,
  `$dlq`.`$payload`['salary'] AS `salary`,
  `$dlq`.`$payload`['hired'] AS `hired`,
  `$dlq`.`$payload`['bonus_pct'] AS `bonus_pct`,
  `$dlq`.`$payload`['active'] AS `active`
FROM `enrich.failed`;

-- checkpoint $pipeline.triggers; made after the writes, and only when they met a row that fails in enrich.carry (codegen/empty_dlq.py)
-- the runner materializes $pipeline.triggers as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- where each file's rows start: turns the positions in $source.row into row numbers for the DLQ (codegen/numbering.py)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.numbering` AS
SELECT
  CAST(0 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `employees.files` AS f
JOIN `employees.offsets` AS o
  ON f.`$file` = o.`$file`;

-- checkpoint $pipeline.numbering: chosen for speed, one pass over the files, made only when the DLQ has entries; a local run keeps its rows (one per file) in the driver: the DLQ's readers join them with no job; a local run that counted the rows of each file while writing them (up to 8 files a source) makes no pass; made after the writes, and only when they met a row that fails in enrich.carry (codegen/empty_dlq.py)
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
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`
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
      `id`,
      `name`,
      `dept`,
      `salary`,
      `hired`,
      `bonus_pct`,
      `active`
    FROM `$pipeline.triggers`
  ) AS e
  LEFT JOIN `$pipeline.numbering` AS n
    ON `e`.`$source.order` = `n`.`$source.order`
    AND (
      `e`.`_cxl_dlq_source_row` DIV CAST(8589934592 AS BIGINT)
    ) = `n`.`$rank`
) AS numbered;

-- sink roster: the records it receives, and the rows of the chain before it that failed (enrich.failed; codegen/split_write.py)
CREATE OR REPLACE TEMPORARY VIEW `roster.split` AS
SELECT
  `id`,
  `name`,
  `dept`,
  `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `tier`,
  `bonus`,
  `hired_year`,
  `team`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$live`,
  `$dlq`
FROM `enrich.carry`
WHERE
  `$live` OR NOT `$dlq` IS NULL;

-- sink roster: write csv to ./out/roster.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py); before its rows, those that failed in enrich.failed, split off when the output is assembled (codegen/split_write.py)
INSERT OVERWRITE DIRECTORY './out/roster.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  value
FROM (
  SELECT
    CASE
      WHEN `$live`
      THEN CONCAT_WS(
        ',',
        COALESCE(CAST(`id` AS STRING), ''),
        CASE
          WHEN `name` IS NULL
          THEN ''
          WHEN CONTAINS(`name`, ',')
          OR CONTAINS(`name`, '"')
          OR CONTAINS(`name`, '\n')
          OR CONTAINS(`name`, '\r')
          THEN CONCAT('"', REPLACE(`name`, '"', '""'), '"')
          ELSE `name`
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
        COALESCE(CAST(`salary` AS STRING), ''),
        COALESCE(CAST(`hired` AS STRING), ''),
        COALESCE(CXL_FLOAT_TEXT(`bonus_pct`), ''),
        COALESCE(CAST(`active` AS STRING), ''),
        CASE
          WHEN `tier` IS NULL
          THEN ''
          WHEN CONTAINS(`tier`, ',')
          OR CONTAINS(`tier`, '"')
          OR CONTAINS(`tier`, '\n')
          OR CONTAINS(`tier`, '\r')
          THEN CONCAT('"', REPLACE(`tier`, '"', '""'), '"')
          ELSE `tier`
        END,
        COALESCE(CXL_FLOAT_TEXT(`bonus`), ''),
        COALESCE(CAST(`hired_year` AS STRING), ''),
        CASE
          WHEN `team` IS NULL
          THEN ''
          WHEN CONTAINS(`team`, ',')
          OR CONTAINS(`team`, '"')
          OR CONTAINS(`team`, '\n')
          OR CONTAINS(`team`, '\r')
          THEN CONCAT('"', REPLACE(`team`, '"', '""'), '"')
          ELSE `team`
        END
      )
      ELSE TO_JSON(`$dlq`)
    END AS `value`,
    CASE WHEN `$live` THEN 2 ELSE 0 END AS `$part`,
    `$source.order` AS `$k0`,
    `$source.row` AS `$k1`
  FROM `roster.split`
  UNION ALL
  SELECT
    '-- clinker-sql: the failing rows end here; the output starts below --' AS `value`,
    1 AS `$part`,
    NULL AS `$k0`,
    NULL AS `$k1`
) AS w
ORDER BY
  CASE
    WHEN `$part` IS NULL OR `$part` < CAST(0 AS BIGINT)
    THEN CAST(0 AS BIGINT)
    WHEN `$part` > CAST(5 AS BIGINT)
    THEN CAST(8070450532247928832 AS BIGINT)
    ELSE SHIFTLEFT(`$part` + CAST(1 AS BIGINT), 60) + CASE
      WHEN `$k0` IS NULL OR `$k0` < CAST('-1' AS BIGINT)
      THEN CAST(0 AS BIGINT)
      WHEN `$k0` > CAST(28 AS BIGINT)
      THEN CAST(1116892707587883008 AS BIGINT)
      ELSE SHIFTLEFT(`$k0` + CAST(2 AS BIGINT), 55) + CASE
        WHEN `$k1` IS NULL OR `$k1` < CAST(0 AS BIGINT)
        THEN CAST(0 AS BIGINT)
        WHEN `$k1` > CAST(36028797018963965 AS BIGINT)
        THEN CAST(36028797018963967 AS BIGINT)
        ELSE `$k1` + CAST(1 AS BIGINT)
      END
    END
  END,
  `$part`,
  `$k0`,
  `$k1`;

-- DLQ: write ./out/dlq.csv with its header line; one record layout (sorted in one partition, chosen for speed)
INSERT OVERWRITE DIRECTORY './out/dlq.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(',', `$fields`, `id`, `name`, `dept`, `salary`, `hired`, `bonus_pct`, `active`) AS value
FROM (
  SELECT
    '_cxl_dlq_id,_cxl_dlq_timestamp,_cxl_dlq_source_file,_cxl_dlq_source_name,_cxl_dlq_source_row,_cxl_dlq_triggering_field,_cxl_dlq_triggering_value,_cxl_dlq_error_category,_cxl_dlq_error_detail,_cxl_dlq_stage,_cxl_dlq_route,_cxl_dlq_trigger' AS `$fields`,
    'id' AS `id`,
    'name' AS `name`,
    'dept' AS `dept`,
    'salary' AS `salary`,
    'hired' AS `hired`,
    'bonus_pct' AS `bonus_pct`,
    'active' AS `active`,
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
      WHEN `id` IS NULL
      THEN ''
      WHEN CONTAINS(`id`, ',')
      OR CONTAINS(`id`, '"')
      OR CONTAINS(`id`, '\n')
      OR CONTAINS(`id`, '\r')
      THEN CONCAT('"', REPLACE(`id`, '"', '""'), '"')
      ELSE `id`
    END AS `id`,
    CASE
      WHEN `name` IS NULL
      THEN ''
      WHEN CONTAINS(`name`, ',')
      OR CONTAINS(`name`, '"')
      OR CONTAINS(`name`, '\n')
      OR CONTAINS(`name`, '\r')
      THEN CONCAT('"', REPLACE(`name`, '"', '""'), '"')
      ELSE `name`
    END AS `name`,
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
      WHEN `salary` IS NULL
      THEN ''
      WHEN CONTAINS(`salary`, ',')
      OR CONTAINS(`salary`, '"')
      OR CONTAINS(`salary`, '\n')
      OR CONTAINS(`salary`, '\r')
      THEN CONCAT('"', REPLACE(`salary`, '"', '""'), '"')
      ELSE `salary`
    END AS `salary`,
    CASE
      WHEN `hired` IS NULL
      THEN ''
      WHEN CONTAINS(`hired`, ',')
      OR CONTAINS(`hired`, '"')
      OR CONTAINS(`hired`, '\n')
      OR CONTAINS(`hired`, '\r')
      THEN CONCAT('"', REPLACE(`hired`, '"', '""'), '"')
      ELSE `hired`
    END AS `hired`,
    CASE
      WHEN `bonus_pct` IS NULL
      THEN ''
      WHEN CONTAINS(`bonus_pct`, ',')
      OR CONTAINS(`bonus_pct`, '"')
      OR CONTAINS(`bonus_pct`, '\n')
      OR CONTAINS(`bonus_pct`, '\r')
      THEN CONCAT('"', REPLACE(`bonus_pct`, '"', '""'), '"')
      ELSE `bonus_pct`
    END AS `bonus_pct`,
    CASE
      WHEN `active` IS NULL
      THEN ''
      WHEN CONTAINS(`active`, ',')
      OR CONTAINS(`active`, '"')
      OR CONTAINS(`active`, '\n')
      OR CONTAINS(`active`, '\r')
      THEN CONCAT('"', REPLACE(`active`, '"', '""'), '"')
      ELSE `active`
    END AS `active`,
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

-- run summary counts (chosen for speed: with no row in $pipeline.triggers and every source's rows counted while read, the runner knows them without this query), after the writes: they count the rows that fail in enrich.carry, and with none the DLQ is empty and not computed (codegen/empty_dlq.py)
SELECT
  (
    SELECT
      `$rows`
    FROM `employees.total`
  ) AS `total:employees`,
  `dlq:employees`,
  `dlq_rows:employees`,
  `dlq_triggers:employees`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'employees' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:employees`,
    COUNT_IF(`n` = 'employees' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:employees`,
    COUNT_IF(`n` = 'employees' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:employees`,
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
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:roster`,
  COUNT(*) AS `ok`,
  COUNT_IF(`$source.name` = 'employees' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:employees`
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
    FROM `roster.rows`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
