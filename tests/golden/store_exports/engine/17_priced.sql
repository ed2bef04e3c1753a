-- transform priced: good rows
CREATE OR REPLACE TEMPORARY VIEW `priced` AS
SELECT
  `sale_id`,
  `sku`,
  `qty`,
  `unit_price`,
  `total`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`
FROM `priced.carry`
WHERE
  `$live`;
