-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
SELECT
  CAST(0 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  `amount` AS `$payload.amount`,
  CAST(`cents` AS STRING) AS `$payload.cents`,
  `customer` AS `$payload.customer`,
  CAST(`line` AS STRING) AS `$payload.line`,
  `order_id` AS `$payload.order_id`,
  `region` AS `$payload.region`
FROM `big.rows`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.order_id`, '') AS `$ck.order_id`,
  `amount` AS `$payload.amount`,
  CAST(`cents` AS STRING) AS `$payload.cents`,
  `customer` AS `$payload.customer`,
  CAST(`line` AS STRING) AS `$payload.line`,
  `order_id` AS `$payload.order_id`,
  `region` AS `$payload.region`
FROM `small.rows`;
