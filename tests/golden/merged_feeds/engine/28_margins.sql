-- transform margins: good rows
CREATE OR REPLACE TEMPORARY VIEW `margins` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$out.store` AS `store`,
  `$out.margin_pct` AS `margin_pct`,
  `$out.updated_day` AS `updated_day`,
  `$out.flag` AS `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins.checked`
WHERE
  `$err` IS NULL AND `$keep`;
