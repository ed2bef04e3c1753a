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
