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
  CASE
    WHEN COALESCE(
      SUBSTRING(
        `sku`,
        CAST(LEAST(
          COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
          CAST(2147483646 AS BIGINT)
        ) + 1 AS INT)
      ) RLIKE '^[+-]?[0-9]+\\z',
      FALSE
    )
    THEN TRY_CAST(SUBSTRING(
      `sku`,
      CAST(LEAST(
        COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
        CAST(2147483646 AS BIGINT)
      ) + 1 AS INT)
    ) AS BIGINT)
  END AS `$out.sku_number`,
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
          AND CASE
            WHEN COALESCE(
              SUBSTRING(
                `sku`,
                CAST(LEAST(
                  COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
                  CAST(2147483646 AS BIGINT)
                ) + 1 AS INT)
              ) RLIKE '^[+-]?[0-9]+\\z',
              FALSE
            )
            THEN TRY_CAST(SUBSTRING(
              `sku`,
              CAST(LEAST(
                COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
                CAST(2147483646 AS BIGINT)
              ) + 1 AS INT)
            ) AS BIGINT)
          END IS NULL
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
        CONCAT(
          'conversion failed: cannot convert \'',
          SUBSTRING(
            `sku`,
            CAST(LEAST(
              COALESCE(GREATEST(CAST(2 AS BIGINT), CAST(0 AS BIGINT)), CAST(0 AS BIGINT)),
              CAST(2147483646 AS BIGINT)
            ) + 1 AS INT)
          ),
          '\' to Int'
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
