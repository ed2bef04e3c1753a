-- transform price: the statements that hold its logic (step 11 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   customer <- if customer.is_empty() then "unknown" else customer [reads orders.customer]
--   region <- region.upper() [reads orders.region]
--   cents <- cents (let cents = (amount.to_float() * 100.0).round().to_int()) [reads orders.amount]
--   unchanged from orders: order_id, line, amount, $ck.order_id

-- step 11
-- transform price: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `price.eval` AS
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
  `$live`,
  `$dlq`,
  CASE WHEN `$live` THEN `order_id` END AS `$out.order_id`,
  CASE WHEN `$live` THEN `line` END AS `$out.line`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE((
        `customer` IS NULL OR `customer` = ''
      ), FALSE)
      THEN 'unknown'
      ELSE `customer`
    END
  END AS `$out.customer`,
  CASE
    WHEN `$live`
    THEN CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)))
  END AS `$out.cents`,
  CASE WHEN `$live` THEN UPPER(`region`) END AS `$out.region`,
  CASE WHEN `$live` THEN TRUE END AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE(
        (
          NOT `amount` IS NULL AND (
            NOT `amount` IS NULL AND `$shared.0` IS NULL
          )
        ),
        FALSE
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`amount`, 'Float')) AS detail,
        CAST(NULL AS STRING) AS field,
        `amount` AS value
      )
      WHEN COALESCE(
        (
          NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
          AND (
            NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
            AND CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) IS NULL
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
FROM (
  SELECT
    *,
    CXL_STRING_TO_FLOAT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;
