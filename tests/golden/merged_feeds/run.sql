-- clinker-sql 0.1.0: pipeline merged_feeds
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

-- source store_a: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `store_a.scan`
USING CSV
OPTIONS ('path'='./data/store_a.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source store_a: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `store_a.split` AS
SELECT
  `sku` AS `sku`,
  `price` AS `price`,
  `cost` AS `cost`,
  `updated` AS `updated`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `store_a.scan`;

-- checkpoint store_a.split: chosen for speed, the files are parsed once (numbering the rows and every consumer of the source would parse them again) (13 scans read it)
-- the runner materializes store_a.split as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source store_a: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `store_a.files` AS
SELECT
  `$file`,
  './data/store_a.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `store_a.split`
) AS f;

-- checkpoint store_a.files: chosen for speed, a local run lists the files (no job); the rows read its copy as a broadcast
-- the runner materializes store_a.files as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source store_a: where each file starts in the row numbering
CREATE OR REPLACE TEMPORARY VIEW `store_a.offsets` AS
WITH files AS (
  SELECT
    `$file`,
    MIN(`$mid` % CAST(8589934592 AS BIGINT)) AS `$first`,
    COUNT(*) AS `$rows`
  FROM `store_a.split`
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

-- source store_a: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `store_a.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`sku`,
  scan.`price`,
  scan.`cost`,
  scan.`updated`,
  'store_a' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(0 AS BIGINT) AS `$source.order`
FROM `store_a.split` AS scan
JOIN `store_a.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `store_a.rows` AS
-- SELECT
--   scan.`sku`,
--   scan.`price`,
--   scan.`cost`,
--   scan.`updated`,
--   'store_a' AS `$source.name`,
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
--         FROM `store_a.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `store_a.split`
-- ) AS scan;

-- source store_a: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `store_a.bytes`
USING TEXT
OPTIONS ('path'='./data/store_a.csv');

-- source store_a: bytes that are not UTF-8 fail the run (run only when a row read held U+FFFD, or the rows were not counted)
SELECT
  CONCAT(
    'source "store_a": file "',
    './data/store_a.csv',
    '": input is not valid UTF-8. Declare the source\'s character set (e.g. `encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire'
  ) AS `detail`
FROM (
  SELECT
    MIN(`$file`) AS `$file`
  FROM (
    SELECT
      INPUT_FILE_NAME() AS `$file`
    FROM `store_a.bytes`
    WHERE
      NOT IS_VALID_UTF8(`value`)
  ) AS `lines`
) AS `bad`
WHERE
  NOT `$file` IS NULL;

-- source store_a: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `store_a.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `store_a.offsets`;

-- source store_a: typed rows (values that do not cast go to the DLQ)
CREATE OR REPLACE TEMPORARY VIEW `store_a` AS
SELECT
  COALESCE(`sku`, '') AS `sku`,
  CASE
    WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`price` AS DOUBLE)) OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
    )
    THEN TRY_CAST(`price` AS DOUBLE)
  END AS `price`,
  CASE
    WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`cost` AS DOUBLE)) OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
    )
    THEN TRY_CAST(`cost` AS DOUBLE)
  END AS `cost`,
  CASE
    WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
    AND (
      UPPER(
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
          CAST(4 AS BIGINT)
        )
      ) = 'Z'
      OR (
        TRY_CAST(SUBSTRING(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          ),
          CAST(2 AS BIGINT),
          CAST(2 AS BIGINT)
        ) AS INT) < CAST(24 AS BIGINT)
        AND TRY_CAST(SUBSTRING(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          ),
          CAST(5 AS BIGINT),
          CAST(2 AS BIGINT)
        ) AS INT) < CAST(60 AS BIGINT)
      )
    )
    THEN DATE_ADD(
      SECOND,
      -(
        CASE
          WHEN UPPER(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            )
          ) = 'Z'
          THEN CAST(0 AS BIGINT)
          WHEN SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(1 AS BIGINT),
            CAST(1 AS BIGINT)
          ) = '-'
          THEN -(
            TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          )
          ELSE TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) * CAST(60 AS BIGINT)
        END
      ),
      TRY_CAST(CONCAT(
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
        ),
        'T',
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
          CAST(2 AS BIGINT)
        )
      ) AS TIMESTAMP_NTZ)
    )
    ELSE CASE
      WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
    END
  END AS `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  COALESCE(`sku`, '') AS `$ck.sku`
FROM `store_a.rows`
WHERE
  NOT (
    COALESCE(
      (
        `price` IS NULL
        OR `price` = ''
        OR CASE
          WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`price` AS DOUBLE)) OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`price` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `cost` IS NULL
        OR `cost` = ''
        OR CASE
          WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`cost` AS DOUBLE)) OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`cost` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `updated` IS NULL
        OR `updated` = ''
        OR CASE
          WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          AND (
            UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            OR (
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) < CAST(24 AS BIGINT)
              AND TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) < CAST(60 AS BIGINT)
            )
          )
          THEN DATE_ADD(
            SECOND,
            -(
              CASE
                WHEN UPPER(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  )
                ) = 'Z'
                THEN CAST(0 AS BIGINT)
                WHEN SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(1 AS BIGINT),
                  CAST(1 AS BIGINT)
                ) = '-'
                THEN -(
                  TRY_CAST(SUBSTRING(
                    REGEXP_EXTRACT(
                      `updated`,
                      '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                      CAST(4 AS BIGINT)
                    ),
                    CAST(2 AS BIGINT),
                    CAST(2 AS BIGINT)
                  ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                    REGEXP_EXTRACT(
                      `updated`,
                      '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                      CAST(4 AS BIGINT)
                    ),
                    CAST(5 AS BIGINT),
                    CAST(2 AS BIGINT)
                  ) AS INT) * CAST(60 AS BIGINT)
                )
                ELSE TRY_CAST(SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(2 AS BIGINT),
                  CAST(2 AS BIGINT)
                ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(5 AS BIGINT),
                  CAST(2 AS BIGINT)
                ) AS INT) * CAST(60 AS BIGINT)
              END
            ),
            TRY_CAST(CONCAT(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
              ),
              'T',
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(2 AS BIGINT)
              )
            ) AS TIMESTAMP_NTZ)
          )
          ELSE CASE
            WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
          END
        END IS NULL
      ),
      FALSE
    )
  );

-- source store_a: DLQ entries for values that violate the declared type
CREATE OR REPLACE TEMPORARY VIEW `store_a.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN 'price'
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN 'cost'
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN 'updated'
  END AS `_cxl_dlq_triggering_field`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN COALESCE(`price`, '')
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN COALESCE(`cost`, '')
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN COALESCE(`updated`, '')
  END AS `_cxl_dlq_triggering_value`,
  'type_coercion_failure' AS `_cxl_dlq_error_category`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_a" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=2 field="price" declared_type=Float: value "',
      COALESCE(`price`, ''),
      '" is not a valid Float'
    )
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_a" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=3 field="cost" declared_type=Float: value "',
      COALESCE(`cost`, ''),
      '" is not a valid Float'
    )
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_a" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=4 field="updated" declared_type=DateTime: value "',
      COALESCE(`updated`, ''),
      '" is not a valid DateTime'
    )
  END AS `_cxl_dlq_error_detail`,
  'source' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `sku`,
  `price`,
  `cost`,
  `updated`
FROM `store_a.rows`
WHERE
  (
    `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
  )
  OR (
    `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
  )
  OR (
    `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
  );

-- source store_b: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `store_b.scan`
USING CSV
OPTIONS ('path'='./data/store_b.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');

-- source store_b: the rows as text, with the split they were read from
CREATE OR REPLACE TEMPORARY VIEW `store_b.split` AS
SELECT
  `sku` AS `sku`,
  `price` AS `price`,
  `cost` AS `cost`,
  `updated` AS `updated`,
  INPUT_FILE_NAME() AS `$file`,
  INPUT_FILE_BLOCK_START() AS `$block`,
  MONOTONICALLY_INCREASING_ID() AS `$mid`
FROM `store_b.scan`;

-- checkpoint store_b.split: chosen for speed, the files are parsed once (numbering the rows and every consumer of the source would parse them again) (13 scans read it)
-- the runner materializes store_b.split as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source store_b: its files in name order
CREATE OR REPLACE TEMPORARY VIEW `store_b.files` AS
SELECT
  `$file`,
  './data/store_b.csv' AS `$path`,
  ROW_NUMBER() OVER (ORDER BY `$file`) - 1 AS `$rank`
FROM (
  SELECT DISTINCT
    `$file`
  FROM `store_b.split`
) AS f;

-- checkpoint store_b.files: chosen for speed, a local run lists the files (no job); the rows read its copy as a broadcast
-- the runner materializes store_b.files as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- source store_b: where each file starts in the row numbering
CREATE OR REPLACE TEMPORARY VIEW `store_b.offsets` AS
WITH files AS (
  SELECT
    `$file`,
    MIN(`$mid` % CAST(8589934592 AS BIGINT)) AS `$first`,
    COUNT(*) AS `$rows`
  FROM `store_b.split`
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

-- source store_b: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `store_b.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`sku`,
  scan.`price`,
  scan.`cost`,
  scan.`updated`,
  'store_b' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(1 AS BIGINT) AS `$source.order`
FROM `store_b.split` AS scan
JOIN `store_b.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `store_b.rows` AS
-- SELECT
--   scan.`sku`,
--   scan.`price`,
--   scan.`cost`,
--   scan.`updated`,
--   'store_b' AS `$source.name`,
--   scan.`$at`.`$path` AS `$source.file`,
--   `scan`.`$at`.`$rank` * CAST(8589934592 AS BIGINT) + (
--     `scan`.`$mid` % CAST(8589934592 AS BIGINT)
--   ) AS `$source.row`,
--   CAST(1 AS BIGINT) AS `$source.order`
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
--         FROM `store_b.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `store_b.split`
-- ) AS scan;

-- source store_b: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `store_b.bytes`
USING TEXT
OPTIONS ('path'='./data/store_b.csv');

-- source store_b: bytes that are not UTF-8 fail the run (run only when a row read held U+FFFD, or the rows were not counted)
SELECT
  CONCAT(
    'source "store_b": file "',
    './data/store_b.csv',
    '": input is not valid UTF-8. Declare the source\'s character set (e.g. `encoding: iso-8859-1`) if the input uses a non-UTF-8 repertoire'
  ) AS `detail`
FROM (
  SELECT
    MIN(`$file`) AS `$file`
  FROM (
    SELECT
      INPUT_FILE_NAME() AS `$file`
    FROM `store_b.bytes`
    WHERE
      NOT IS_VALID_UTF8(`value`)
  ) AS `lines`
) AS `bad`
WHERE
  NOT `$file` IS NULL;

-- source store_b: the rows read (run summary)
CREATE OR REPLACE TEMPORARY VIEW `store_b.total` AS
SELECT
  COALESCE(SUM(`$rows`), 0) AS `$rows`
FROM `store_b.offsets`;

-- source store_b: typed rows (values that do not cast go to the DLQ)
CREATE OR REPLACE TEMPORARY VIEW `store_b` AS
SELECT
  COALESCE(`sku`, '') AS `sku`,
  CASE
    WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`price` AS DOUBLE)) OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
    )
    THEN TRY_CAST(`price` AS DOUBLE)
  END AS `price`,
  CASE
    WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
    AND NOT (
      ISNAN(TRY_CAST(`cost` AS DOUBLE)) OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
    )
    THEN TRY_CAST(`cost` AS DOUBLE)
  END AS `cost`,
  CASE
    WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
    AND (
      UPPER(
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
          CAST(4 AS BIGINT)
        )
      ) = 'Z'
      OR (
        TRY_CAST(SUBSTRING(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          ),
          CAST(2 AS BIGINT),
          CAST(2 AS BIGINT)
        ) AS INT) < CAST(24 AS BIGINT)
        AND TRY_CAST(SUBSTRING(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          ),
          CAST(5 AS BIGINT),
          CAST(2 AS BIGINT)
        ) AS INT) < CAST(60 AS BIGINT)
      )
    )
    THEN DATE_ADD(
      SECOND,
      -(
        CASE
          WHEN UPPER(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            )
          ) = 'Z'
          THEN CAST(0 AS BIGINT)
          WHEN SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(1 AS BIGINT),
            CAST(1 AS BIGINT)
          ) = '-'
          THEN -(
            TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          )
          ELSE TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) * CAST(60 AS BIGINT)
        END
      ),
      TRY_CAST(CONCAT(
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
        ),
        'T',
        REGEXP_EXTRACT(
          `updated`,
          '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
          CAST(2 AS BIGINT)
        )
      ) AS TIMESTAMP_NTZ)
    )
    ELSE CASE
      WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
      WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
      THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
    END
  END AS `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  COALESCE(`sku`, '') AS `$ck.sku`
FROM `store_b.rows`
WHERE
  NOT (
    COALESCE(
      (
        `price` IS NULL
        OR `price` = ''
        OR CASE
          WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`price` AS DOUBLE)) OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`price` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `cost` IS NULL
        OR `cost` = ''
        OR CASE
          WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
          AND NOT (
            ISNAN(TRY_CAST(`cost` AS DOUBLE)) OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
          )
          THEN TRY_CAST(`cost` AS DOUBLE)
        END IS NULL
      ),
      FALSE
    )
    OR COALESCE(
      (
        `updated` IS NULL
        OR `updated` = ''
        OR CASE
          WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          AND (
            UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            OR (
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) < CAST(24 AS BIGINT)
              AND TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) < CAST(60 AS BIGINT)
            )
          )
          THEN DATE_ADD(
            SECOND,
            -(
              CASE
                WHEN UPPER(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  )
                ) = 'Z'
                THEN CAST(0 AS BIGINT)
                WHEN SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(1 AS BIGINT),
                  CAST(1 AS BIGINT)
                ) = '-'
                THEN -(
                  TRY_CAST(SUBSTRING(
                    REGEXP_EXTRACT(
                      `updated`,
                      '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                      CAST(4 AS BIGINT)
                    ),
                    CAST(2 AS BIGINT),
                    CAST(2 AS BIGINT)
                  ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                    REGEXP_EXTRACT(
                      `updated`,
                      '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                      CAST(4 AS BIGINT)
                    ),
                    CAST(5 AS BIGINT),
                    CAST(2 AS BIGINT)
                  ) AS INT) * CAST(60 AS BIGINT)
                )
                ELSE TRY_CAST(SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(2 AS BIGINT),
                  CAST(2 AS BIGINT)
                ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                  REGEXP_EXTRACT(
                    `updated`,
                    '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                    CAST(4 AS BIGINT)
                  ),
                  CAST(5 AS BIGINT),
                  CAST(2 AS BIGINT)
                ) AS INT) * CAST(60 AS BIGINT)
              END
            ),
            TRY_CAST(CONCAT(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
              ),
              'T',
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(2 AS BIGINT)
              )
            ) AS TIMESTAMP_NTZ)
          )
          ELSE CASE
            WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
            WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
            THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
          END
        END IS NULL
      ),
      FALSE
    )
  );

-- source store_b: DLQ entries for values that violate the declared type
CREATE OR REPLACE TEMPORARY VIEW `store_b.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN 'price'
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN 'cost'
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN 'updated'
  END AS `_cxl_dlq_triggering_field`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN COALESCE(`price`, '')
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN COALESCE(`cost`, '')
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN COALESCE(`updated`, '')
  END AS `_cxl_dlq_triggering_value`,
  'type_coercion_failure' AS `_cxl_dlq_error_category`,
  CASE
    WHEN `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_b" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=2 field="price" declared_type=Float: value "',
      COALESCE(`price`, ''),
      '" is not a valid Float'
    )
    WHEN `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_b" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=3 field="cost" declared_type=Float: value "',
      COALESCE(`cost`, ''),
      '" is not a valid Float'
    )
    WHEN `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
    THEN CONCAT(
      '[E126] source="store_b" file="',
      `$source.file`,
      '" row=',
      CAST(`$source.row` AS STRING),
      ' column=4 field="updated" declared_type=DateTime: value "',
      COALESCE(`updated`, ''),
      '" is not a valid DateTime'
    )
  END AS `_cxl_dlq_error_detail`,
  'source' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `sku`,
  `price`,
  `cost`,
  `updated`
FROM `store_b.rows`
WHERE
  (
    `price` IS NULL
    OR `price` = ''
    OR CASE
      WHEN `price` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`price` AS DOUBLE))
        OR ABS(TRY_CAST(`price` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`price` AS DOUBLE)
    END IS NULL
  )
  OR (
    `cost` IS NULL
    OR `cost` = ''
    OR CASE
      WHEN `cost` RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?\\z'
      AND NOT (
        ISNAN(TRY_CAST(`cost` AS DOUBLE))
        OR ABS(TRY_CAST(`cost` AS DOUBLE)) = CAST('Infinity' AS DOUBLE)
      )
      THEN TRY_CAST(`cost` AS DOUBLE)
    END IS NULL
  )
  OR (
    `updated` IS NULL
    OR `updated` = ''
    OR CASE
      WHEN `updated` RLIKE '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
      AND (
        UPPER(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(4 AS BIGINT)
          )
        ) = 'Z'
        OR (
          TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(2 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(24 AS BIGINT)
          AND TRY_CAST(SUBSTRING(
            REGEXP_EXTRACT(
              `updated`,
              '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
              CAST(4 AS BIGINT)
            ),
            CAST(5 AS BIGINT),
            CAST(2 AS BIGINT)
          ) AS INT) < CAST(60 AS BIGINT)
        )
      )
      THEN DATE_ADD(
        SECOND,
        -(
          CASE
            WHEN UPPER(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              )
            ) = 'Z'
            THEN CAST(0 AS BIGINT)
            WHEN SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(1 AS BIGINT),
              CAST(1 AS BIGINT)
            ) = '-'
            THEN -(
              TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(2 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
                REGEXP_EXTRACT(
                  `updated`,
                  '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                  CAST(4 AS BIGINT)
                ),
                CAST(5 AS BIGINT),
                CAST(2 AS BIGINT)
              ) AS INT) * CAST(60 AS BIGINT)
            )
            ELSE TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(2 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(3600 AS BIGINT) + TRY_CAST(SUBSTRING(
              REGEXP_EXTRACT(
                `updated`,
                '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
                CAST(4 AS BIGINT)
              ),
              CAST(5 AS BIGINT),
              CAST(2 AS BIGINT)
            ) AS INT) * CAST(60 AS BIGINT)
          END
        ),
        TRY_CAST(CONCAT(
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z'
          ),
          'T',
          REGEXP_EXTRACT(
            `updated`,
            '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})\\z',
            CAST(2 AS BIGINT)
          )
        ) AS TIMESTAMP_NTZ)
      )
      ELSE CASE
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d\'T\'H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'y-M-d H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m:s') AS TIMESTAMP_NTZ)
        WHEN `updated` RLIKE '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4} [0-9]{1,2}:[0-9]{1,2}\\z'
        THEN TRY_CAST(TRY_TO_TIMESTAMP(`updated`, 'M/d/y H:m') AS TIMESTAMP_NTZ)
      END
    END IS NULL
  );

-- merge feeds: store_a, store_b
CREATE OR REPLACE TEMPORARY VIEW `feeds` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `store_a`
UNION ALL
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `store_b`;

-- transform margins: the CXL, one column per emit
CREATE OR REPLACE TEMPORARY VIEW `margins.eval` AS
SELECT
  *,
  `$source.name` AS `$out.store`,
  CXL_FLOAT_ROUND(
    CASE WHEN `cost` = CAST('0.0' AS DOUBLE) THEN NULL ELSE (
      `price` - `cost`
    ) / `cost` END * CAST('100.0' AS DOUBLE),
    CAST(1 AS BIGINT)
  ) AS `$out.margin_pct`,
  CASE
    WHEN NOT `updated` IS NULL
    THEN CONCAT(
      CASE
        WHEN LENGTH(CAST(YEAR(`updated`) AS STRING)) >= 4
        THEN CAST(YEAR(`updated`) AS STRING)
        ELSE LPAD(CAST(YEAR(`updated`) AS STRING), 4, '0')
      END,
      '-',
      CASE
        WHEN LENGTH(CAST(MONTH(`updated`) AS STRING)) >= 2
        THEN CAST(MONTH(`updated`) AS STRING)
        ELSE LPAD(CAST(MONTH(`updated`) AS STRING), 2, '0')
      END,
      '-',
      CASE
        WHEN LENGTH(CAST(DAYOFMONTH(`updated`) AS STRING)) >= 2
        THEN CAST(DAYOFMONTH(`updated`) AS STRING)
        ELSE LPAD(CAST(DAYOFMONTH(`updated`) AS STRING), 2, '0')
      END
    )
  END AS `$out.updated_day`,
  CASE
    WHEN CASE WHEN ISNAN(`price`) OR ISNAN(`cost`) THEN FALSE ELSE `price` < `cost` END
    THEN 'loss'
    ELSE CASE
      WHEN `price` IS NOT DISTINCT FROM `cost` AND COALESCE(NOT ISNAN(`price`), TRUE)
      THEN 'even'
      ELSE 'ok'
    END
  END AS `$out.flag`
FROM `feeds`;

-- transform margins: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `margins.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `cost` = CAST('0.0' AS DOUBLE)
    THEN STRUCT(
      'type_coercion_failure' AS category,
      CONCAT(
        'row ',
        CAST(`$source.row` AS STRING),
        ': ',
        'field \'margin_pct\': ',
        'division by zero'
      ) AS detail,
      'margin_pct' AS field,
      CAST(NULL AS STRING) AS value
    )
  END AS `$err`
FROM `margins.eval`;

-- transform margins: good rows
CREATE OR REPLACE TEMPORARY VIEW `margins` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$out.store` AS `store`,
  `$out.margin_pct` AS `margin_pct`,
  `$out.updated_day` AS `updated_day`,
  `$out.flag` AS `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins.checked`
WHERE
  `$err` IS NULL AND `$keep`;

-- transform margins: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `margins.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:margins' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `sku`,
  CXL_FLOAT_TEXT(`price`) AS `price`,
  CXL_FLOAT_TEXT(`cost`) AS `cost`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `updated`,
  `$ck.sku`
FROM `margins.checked`
WHERE
  NOT `$err` IS NULL;

-- sink margins_csv: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `margins_csv.rows` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `store`,
  `margin_pct`,
  `updated_day`,
  `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins`;

-- sink margins_parquet: the records it receives
CREATE OR REPLACE TEMPORARY VIEW `margins_parquet.rows` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `store`,
  `margin_pct`,
  `updated_day`,
  `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins`;

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
  CAST(NULL AS STRING) AS `$ck.sku`,
  `cost`,
  CAST(NULL AS STRING) AS `flag`,
  CAST(NULL AS STRING) AS `margin_pct`,
  `price`,
  `sku`,
  CAST(NULL AS STRING) AS `store`,
  `updated`,
  CAST(NULL AS STRING) AS `updated_day`
FROM `store_a.errors`
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
  CAST(NULL AS STRING) AS `$ck.sku`,
  `cost`,
  CAST(NULL AS STRING) AS `flag`,
  CAST(NULL AS STRING) AS `margin_pct`,
  `price`,
  `sku`,
  CAST(NULL AS STRING) AS `store`,
  `updated`,
  CAST(NULL AS STRING) AS `updated_day`
FROM `store_b.errors`
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
  `$ck.sku`,
  `cost`,
  CAST(NULL AS STRING) AS `flag`,
  CAST(NULL AS STRING) AS `margin_pct`,
  `price`,
  `sku`,
  CAST(NULL AS STRING) AS `store`,
  `updated`,
  CAST(NULL AS STRING) AS `updated_day`
FROM `margins.errors`;

-- checkpoint $pipeline.triggers
-- the runner materializes $pipeline.triggers as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- correlation: (source, key) cells that hold a trigger
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_dirty` AS
SELECT DISTINCT
  `_cxl_dlq_source_name` AS `$source.name`,
  NULLIF(`$ck.sku`, '') AS `$ck.sku`
FROM `$pipeline.triggers`
WHERE
  `_cxl_dlq_stage` <> 'source' AND (
    NOT (
      COALESCE(`$ck.sku`, '') = ''
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
  NULLIF(`$ck.sku`, '') AS `$ck.sku`,
  CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
  `flag` AS `$payload.flag`,
  CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
  CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
  `sku` AS `$payload.sku`,
  `store` AS `$payload.store`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `$payload.updated`,
  `updated_day` AS `$payload.updated_day`
FROM `margins_csv.rows`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.sku`, '') AS `$ck.sku`,
  CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
  `flag` AS `$payload.flag`,
  CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
  CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
  `sku` AS `$payload.sku`,
  `store` AS `$payload.store`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `$payload.updated`,
  `updated_day` AS `$payload.updated_day`
FROM `margins_parquet.rows`;

-- correlation: the keys of the groups over max_group_buffer (100000)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_big` AS
SELECT
  `$ck.sku`
FROM `$pipeline.ck_members`
WHERE
  NOT `$ck.sku` IS NULL
GROUP BY
  `$ck.sku`
HAVING
  COUNT(*) > 100000;

-- checkpoint $pipeline.ck_big: chosen for speed, the group sizes are counted once for every commit and the collateral entries
-- the runner materializes $pipeline.ck_big as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- correlation: groups over max_group_buffer (100000), with their first record
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_overflow` AS
SELECT
  members.`$ck.sku`,
  MIN(
    STRUCT(
      members.`$source.order` AS o,
      members.`$source.row` AS r,
      members.`$source.name` AS s
    )
  ) AS `$first`
FROM `$pipeline.ck_members` AS members
LEFT SEMI JOIN `$pipeline.ck_big` AS big
  ON `big`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
GROUP BY
  members.`$ck.sku`;

-- checkpoint $pipeline.ck_overflow: chosen for speed, the first records are found once for every commit and the collateral entries
-- the runner materializes $pipeline.ck_overflow as Parquet in its scratch folder and redefines the view over it, so that the statements below plan it once

-- sink margins_csv: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `margins_csv.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `margins_csv.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON `dirty`.`$source.name` = `rows`.`$source.name`
  AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.sku`, '')
LEFT ANTI JOIN (
  SELECT DISTINCT
    `_cxl_dlq_source_name` AS `$source.name`,
    `_cxl_dlq_source_row` AS `$source.row`
  FROM `$pipeline.triggers`
  WHERE
    `_cxl_dlq_stage` <> 'source'
    AND NOT (
      NOT (
        COALESCE(`$ck.sku`, '') = ''
      )
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.sku`, '');

-- sink margins_parquet: records of clean correlation groups (chosen for speed: broadcast anti-joins, the dirty and overflowing cells are small; benchmarks/dirty_groups.py)
CREATE OR REPLACE TEMPORARY VIEW `margins_parquet.commit` AS
SELECT /*+ BROADCAST(dirty),
  BROADCAST(dirty_rows),
  BROADCAST(overflow) */
  rows.*
FROM `margins_parquet.rows` AS rows
LEFT ANTI JOIN `$pipeline.ck_dirty` AS dirty
  ON `dirty`.`$source.name` = `rows`.`$source.name`
  AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.sku`, '')
LEFT ANTI JOIN (
  SELECT DISTINCT
    `_cxl_dlq_source_name` AS `$source.name`,
    `_cxl_dlq_source_row` AS `$source.row`
  FROM `$pipeline.triggers`
  WHERE
    `_cxl_dlq_stage` <> 'source'
    AND NOT (
      NOT (
        COALESCE(`$ck.sku`, '') = ''
      )
    )
    AND `_cxl_dlq_source_name` <> '<merged>'
) AS dirty_rows
  ON dirty_rows.`$source.name` = rows.`$source.name`
  AND dirty_rows.`$source.row` = rows.`$source.row`
LEFT ANTI JOIN `$pipeline.ck_overflow` AS overflow
  ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM NULLIF(`rows`.`$ck.sku`, '');

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
      NULLIF(`$ck.sku`, '') AS `$ck.sku`,
      CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
      `flag` AS `$payload.flag`,
      CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
      CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
      `sku` AS `$payload.sku`,
      `store` AS `$payload.store`,
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ) AS `$payload.updated`,
      `updated_day` AS `$payload.updated_day`
    FROM `margins_csv.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
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
      NULLIF(`$ck.sku`, '') AS `$ck.sku`,
      CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
      `flag` AS `$payload.flag`,
      CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
      CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
      `sku` AS `$payload.sku`,
      `store` AS `$payload.store`,
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ) AS `$payload.updated`,
      `updated_day` AS `$payload.updated_day`
    FROM `margins_parquet.rows`
  ) AS members
  LEFT JOIN `$pipeline.ck_dirty` AS dirty
    ON `dirty`.`$source.name` = `members`.`$source.name`
    AND `dirty`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
  LEFT JOIN `$pipeline.ck_overflow` AS overflow
    ON `overflow`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
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
  `$ck.sku`,
  `$payload.cost` AS `cost`,
  `$payload.flag` AS `flag`,
  `$payload.margin_pct` AS `margin_pct`,
  `$payload.price` AS `price`,
  `$payload.sku` AS `sku`,
  `$payload.store` AS `store`,
  `$payload.updated` AS `updated`,
  `$payload.updated_day` AS `updated_day`
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
FROM `store_a.files` AS f
JOIN `store_a.offsets` AS o
  ON f.`$file` = o.`$file`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `store_b.files` AS f
JOIN `store_b.offsets` AS o
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
  `$ck.sku`,
  `cost`,
  `flag`,
  `margin_pct`,
  `price`,
  `sku`,
  `store`,
  `updated`,
  `updated_day`
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
      `$ck.sku`,
      `cost`,
      `flag`,
      `margin_pct`,
      `price`,
      `sku`,
      `store`,
      `updated`,
      `updated_day`
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
      `$ck.sku`,
      `cost`,
      `flag`,
      `margin_pct`,
      `price`,
      `sku`,
      `store`,
      `updated`,
      `updated_day`
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

-- sink margins_csv: write csv to ./out/margins.csv (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/margins.csv.clinker-staging' USING text
SELECT /*+ REPARTITION(1) */
  CONCAT_WS(
    ',',
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
    COALESCE(CXL_FLOAT_TEXT(`price`), ''),
    COALESCE(CXL_FLOAT_TEXT(`cost`), ''),
    COALESCE(
      CONCAT(
        DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
        CASE
          WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
          THEN ''
          WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
          THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
          ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
        END
      ),
      ''
    ),
    CASE
      WHEN `store` IS NULL
      THEN ''
      WHEN CONTAINS(`store`, ',')
      OR CONTAINS(`store`, '"')
      OR CONTAINS(`store`, '\n')
      OR CONTAINS(`store`, '\r')
      THEN CONCAT('"', REPLACE(`store`, '"', '""'), '"')
      ELSE `store`
    END,
    COALESCE(CXL_FLOAT_TEXT(`margin_pct`), ''),
    CASE
      WHEN `updated_day` IS NULL
      THEN ''
      WHEN CONTAINS(`updated_day`, ',')
      OR CONTAINS(`updated_day`, '"')
      OR CONTAINS(`updated_day`, '\n')
      OR CONTAINS(`updated_day`, '\r')
      THEN CONCAT('"', REPLACE(`updated_day`, '"', '""'), '"')
      ELSE `updated_day`
    END,
    CASE
      WHEN `flag` IS NULL
      THEN ''
      WHEN CONTAINS(`flag`, ',')
      OR CONTAINS(`flag`, '"')
      OR CONTAINS(`flag`, '\n')
      OR CONTAINS(`flag`, '\r')
      THEN CONCAT('"', REPLACE(`flag`, '"', '""'), '"')
      ELSE `flag`
    END
  ) AS value
FROM `margins_csv.commit`
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

-- sink margins_parquet: write parquet to ./out/margins.parquet (sorted in one partition, chosen for speed: no sampling pass; its arrival order packed into one BIGINT first, codegen/sort_key.py)
INSERT OVERWRITE DIRECTORY './out/margins.parquet.clinker-staging' USING parquet
SELECT /*+ COALESCE(1) */
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `store`,
  `margin_pct`,
  `updated_day`,
  `flag`
FROM `margins_parquet.commit`
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
    THEN CONCAT_WS(',', `$fields`, `sku`, `price`, `cost`, `updated`)
    WHEN `$file_layout` = CAST(1 AS BIGINT)
    THEN CONCAT_WS(',', `$fields`, `sku`, `price`, `cost`, `updated`, `$ck.sku`)
    WHEN `$file_layout` = CAST(2 AS BIGINT)
    THEN CONCAT_WS(
      ',',
      `$fields`,
      `sku`,
      `price`,
      `cost`,
      `updated`,
      `store`,
      `margin_pct`,
      `updated_day`,
      `flag`,
      `$ck.sku`
    )
    ELSE CONCAT_WS(
      ',',
      `$fields`,
      `$ck.sku`,
      `cost`,
      `flag`,
      `margin_pct`,
      `price`,
      `sku`,
      `store`,
      `updated`,
      `updated_day`
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
      '$ck.sku' AS `$ck.sku`,
      'cost' AS `cost`,
      'flag' AS `flag`,
      'margin_pct' AS `margin_pct`,
      'price' AS `price`,
      'sku' AS `sku`,
      'store' AS `store`,
      'updated' AS `updated`,
      'updated_day' AS `updated_day`,
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
        WHEN `$ck.sku` IS NULL
        THEN ''
        WHEN CONTAINS(`$ck.sku`, ',')
        OR CONTAINS(`$ck.sku`, '"')
        OR CONTAINS(`$ck.sku`, '\n')
        OR CONTAINS(`$ck.sku`, '\r')
        THEN CONCAT('"', REPLACE(`$ck.sku`, '"', '""'), '"')
        ELSE `$ck.sku`
      END AS `$ck.sku`,
      CASE
        WHEN `cost` IS NULL
        THEN ''
        WHEN CONTAINS(`cost`, ',')
        OR CONTAINS(`cost`, '"')
        OR CONTAINS(`cost`, '\n')
        OR CONTAINS(`cost`, '\r')
        THEN CONCAT('"', REPLACE(`cost`, '"', '""'), '"')
        ELSE `cost`
      END AS `cost`,
      CASE
        WHEN `flag` IS NULL
        THEN ''
        WHEN CONTAINS(`flag`, ',')
        OR CONTAINS(`flag`, '"')
        OR CONTAINS(`flag`, '\n')
        OR CONTAINS(`flag`, '\r')
        THEN CONCAT('"', REPLACE(`flag`, '"', '""'), '"')
        ELSE `flag`
      END AS `flag`,
      CASE
        WHEN `margin_pct` IS NULL
        THEN ''
        WHEN CONTAINS(`margin_pct`, ',')
        OR CONTAINS(`margin_pct`, '"')
        OR CONTAINS(`margin_pct`, '\n')
        OR CONTAINS(`margin_pct`, '\r')
        THEN CONCAT('"', REPLACE(`margin_pct`, '"', '""'), '"')
        ELSE `margin_pct`
      END AS `margin_pct`,
      CASE
        WHEN `price` IS NULL
        THEN ''
        WHEN CONTAINS(`price`, ',')
        OR CONTAINS(`price`, '"')
        OR CONTAINS(`price`, '\n')
        OR CONTAINS(`price`, '\r')
        THEN CONCAT('"', REPLACE(`price`, '"', '""'), '"')
        ELSE `price`
      END AS `price`,
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
        WHEN `store` IS NULL
        THEN ''
        WHEN CONTAINS(`store`, ',')
        OR CONTAINS(`store`, '"')
        OR CONTAINS(`store`, '\n')
        OR CONTAINS(`store`, '\r')
        THEN CONCAT('"', REPLACE(`store`, '"', '""'), '"')
        ELSE `store`
      END AS `store`,
      CASE
        WHEN `updated` IS NULL
        THEN ''
        WHEN CONTAINS(`updated`, ',')
        OR CONTAINS(`updated`, '"')
        OR CONTAINS(`updated`, '\n')
        OR CONTAINS(`updated`, '\r')
        THEN CONCAT('"', REPLACE(`updated`, '"', '""'), '"')
        ELSE `updated`
      END AS `updated`,
      CASE
        WHEN `updated_day` IS NULL
        THEN ''
        WHEN CONTAINS(`updated_day`, ',')
        OR CONTAINS(`updated_day`, '"')
        OR CONTAINS(`updated_day`, '\n')
        OR CONTAINS(`updated_day`, '\r')
        THEN CONCAT('"', REPLACE(`updated_day`, '"', '""'), '"')
        ELSE `updated_day`
      END AS `updated_day`,
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
    FROM `store_a.total`
  ) AS `total:store_a`,
  (
    SELECT
      `$rows`
    FROM `store_b.total`
  ) AS `total:store_b`,
  `dlq:store_a`,
  `dlq_rows:store_a`,
  `dlq_triggers:store_a`,
  `dlq:store_b`,
  `dlq_rows:store_b`,
  `dlq_triggers:store_b`,
  `dlq`
FROM (
  SELECT
    COALESCE(
      SUM(CASE WHEN `n` = 'store_a' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:store_a`,
    COUNT_IF(`n` = 'store_a' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:store_a`,
    COUNT_IF(`n` = 'store_a' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:store_a`,
    COALESCE(
      SUM(CASE WHEN `n` = 'store_b' THEN `c` ELSE CAST(0 AS BIGINT) END),
      CAST(0 AS BIGINT)
    ) AS `dlq:store_b`,
    COUNT_IF(`n` = 'store_b' AND `real` AND NOT `r` IS NULL) AS `dlq_rows:store_b`,
    COUNT_IF(`n` = 'store_b' AND `real` AND NOT `r` IS NULL AND `t` = 1) AS `dlq_triggers:store_b`,
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
  COALESCE(SUM(`w0`), CAST(0 AS BIGINT)) AS `written:margins_csv`,
  COALESCE(SUM(`w1`), CAST(0 AS BIGINT)) AS `written:margins_parquet`,
  COUNT(*) AS `ok`,
  COUNT_IF(`$source.name` = 'store_a' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:store_a`,
  COUNT_IF(`$source.name` = 'store_b' AND `$source.order` >= CAST(0 AS BIGINT)) AS `written_rows:store_b`
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
    FROM `margins_csv.commit`
    UNION ALL
    SELECT
      CAST(1 AS BIGINT) AS `sink`,
      `$source.name`,
      `$source.row`,
      `$source.order`
    FROM `margins_parquet.commit`
  ) AS `reached`
  GROUP BY
    `$source.name`,
    `$source.row`,
    `$source.order`
) AS per_record;
