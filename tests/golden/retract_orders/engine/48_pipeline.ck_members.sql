-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
SELECT
  CAST(0 AS BIGINT) AS `$sink`,
  CAST(3 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  CAST(NULL AS STRING) AS `$ck.order_id`,
  NULLIF(CAST(`$ck.aggregate.dept_totals` AS STRING), '') AS `$ck.aggregate.dept_totals`,
  CAST(NULL AS STRING) AS `$payload.amount`,
  `dept` AS `$payload.dept`,
  CAST(`largest` AS STRING) AS `$payload.largest`,
  CAST(NULL AS STRING) AS `$payload.line`,
  CAST(NULL AS STRING) AS `$payload.order_id`,
  CAST(`orders` AS STRING) AS `$payload.orders`,
  CAST(`rank` AS STRING) AS `$payload.rank`,
  `region` AS `$payload.region`,
  CXL_FLOAT_TEXT(`region_total`) AS `$payload.region_total`,
  CAST(`total` AS STRING) AS `$payload.total`
FROM `report.rows`;
