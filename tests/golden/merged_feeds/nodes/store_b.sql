-- source store_b: the statements that hold its logic (step 23 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sku <- csv column 'sku' of ./data/store_b.csv, as string
--   price <- csv column 'price' of ./data/store_b.csv, as float
--   cost <- csv column 'cost' of ./data/store_b.csv, as float
--   updated <- csv column 'updated' of ./data/store_b.csv, as datetime
--   $ck.sku <- correlation key: a copy of 'sku' taken at ingest

-- step 23
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
