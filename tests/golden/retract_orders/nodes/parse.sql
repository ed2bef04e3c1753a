-- transform parse: the statements that hold its logic (step 11 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   amount <- amount.to_int() [reads orders.amount]
--   unchanged from orders: order_id, line, region, dept, $ck.order_id

-- step 11
-- transform parse: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `parse.eval` AS
SELECT
  `order_id`,
  `line`,
  `region`,
  `dept`,
  `amount`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`,
  `$live`,
  `$dlq`,
  CASE WHEN `$live` THEN `order_id` END AS `$out.order_id`,
  CASE WHEN `$live` THEN `region` END AS `$out.region`,
  CASE WHEN `$live` THEN `dept` END AS `$out.dept`,
  CASE WHEN `$live` THEN `$shared.0` END AS `$out.amount`,
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
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          'field \'amount\': ',
          CXL_CONVERSION_FAILED(`amount`, 'Int')
        ) AS detail,
        'amount' AS field,
        `amount` AS value
      )
    END
  END AS `$err`
FROM (
  SELECT
    *,
    CXL_STRING_TO_INT(`amount`) AS `$shared.0`
  FROM `orders.carry`
) AS `input`;
