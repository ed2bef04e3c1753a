-- transform priced: the statements that hold its logic (step 11 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   total <- price * qty (let price = unit_price.to_float()) [reads sales.unit_price, sales.qty]
--   unchanged from sales: sale_id, sku, qty, unit_price

-- step 11
-- transform priced: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `priced.eval` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$live`,
  `$dlq`,
  CASE WHEN `$live` THEN `$shared.0` * CAST(`qty` AS DOUBLE) END AS `$out.total`,
  CASE WHEN `$live` THEN TRUE END AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE(
        (
          NOT `unit_price` IS NULL
          AND (
            NOT `unit_price` IS NULL AND `$shared.0` IS NULL
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
          CXL_CONVERSION_FAILED(`unit_price`, 'Float')
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        `unit_price` AS value
      )
    END
  END AS `$err`
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`unit_price`) AS `$shared.0`
  FROM `sales.carry`
) AS `input`;
