-- source sales: every row, good or not, with its type-error entry (the first view of a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `sales.carry` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NOT COALESCE(
    (
      `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
    ),
    FALSE
  ) AS `$live`,
  CASE
    WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
    THEN STRUCT(
      `$raw`.`$source.file` AS `_cxl_dlq_source_file`,
      `$raw`.`$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$raw`.`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN 'qty'
      END AS `_cxl_dlq_triggering_field`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN COALESCE(`$raw`.`qty`, '')
      END AS `_cxl_dlq_triggering_value`,
      'type_coercion_failure' AS `_cxl_dlq_error_category`,
      CASE
        WHEN `$raw`.`qty` IS NULL OR `$raw`.`qty` = '' OR `$raw`.`$shared.0` IS NULL
        THEN CONCAT(
          '[E126] source="sales" file="',
          `$raw`.`$source.file`,
          '" row=',
          CAST(`$raw`.`$source.row` AS STRING),
          ' column=3 field="qty" declared_type=Int: value "',
          COALESCE(`$raw`.`qty`, ''),
          '" is not a valid Int'
        )
      END AS `_cxl_dlq_error_detail`,
      'source' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$raw`.`$source.order` AS BIGINT) AS `$source.order`,
      'sales' AS `$node`,
      CAST(MAP(
        'sale_id',
        `$raw`.`sale_id`,
        'sku',
        `$raw`.`sku`,
        'qty',
        `$raw`.`qty`,
        'unit_price',
        `$raw`.`unit_price`
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
  END AS `$dlq`
FROM `sales.typed`;
