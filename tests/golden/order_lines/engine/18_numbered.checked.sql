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
