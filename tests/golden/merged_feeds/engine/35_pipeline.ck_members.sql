-- correlation: every record that reached a sink
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_members` AS
SELECT
  CAST(0 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.sku`, '') AS `$ck.sku`,
  CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
  `flag` AS `$payload.flag`,
  CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
  CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
  `sku` AS `$payload.sku`,
  `store` AS `$payload.store`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `$payload.updated`,
  `updated_day` AS `$payload.updated_day`
FROM `margins_csv.rows`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$sink`,
  CAST(2 AS BIGINT) AS `$layout`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  NULLIF(`$ck.sku`, '') AS `$ck.sku`,
  CXL_FLOAT_TEXT(`cost`) AS `$payload.cost`,
  `flag` AS `$payload.flag`,
  CXL_FLOAT_TEXT(`margin_pct`) AS `$payload.margin_pct`,
  CXL_FLOAT_TEXT(`price`) AS `$payload.price`,
  `sku` AS `$payload.sku`,
  `store` AS `$payload.store`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `$payload.updated`,
  `updated_day` AS `$payload.updated_day`
FROM `margins_parquet.rows`;
