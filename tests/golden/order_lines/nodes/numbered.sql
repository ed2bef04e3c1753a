-- transform numbered: the statements that hold its logic (step 17 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   sku_number <- sku.substring(2).to_int() [reads lines.sku]
--   unchanged from lines: order_id, customer, items, line_count, sku, qty

-- step 17
-- transform numbered: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `numbered.eval` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`,
  CXL_STRING_TO_INT(
    SUBSTRING(
      `sku`,
      CAST(LEAST(
        COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
        CAST(2147483646 AS BIGINT)
      ) + 1 AS INT)
    )
  ) AS `$out.sku_number`,
  TRUE AS `$keep`,
  CASE
    WHEN COALESCE(
      (
        NOT SUBSTRING(
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
      ),
      FALSE
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
FROM `lines`;
