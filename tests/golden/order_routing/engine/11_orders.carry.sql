-- source orders: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `orders.carry` AS
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
  NOT COALESCE(
    (
      `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
    ),
    FALSE
  ) AS `$live`,
  CASE
    WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'line'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`line`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`line` IS NULL OR `$raw`.`line` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="orders" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=2 field="line" declared_type=Int: value "',
          COALESCE(`$raw`.`line`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'orders' AS `$node`,
      CAST(MAP(
        'order_id',
        `$raw`.`order_id`,
        'line',
        `$raw`.`line`,
        'customer',
        `$raw`.`customer`,
        'amount',
        `$raw`.`amount`,
        'region',
        `$raw`.`region`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `orders.typed`;
