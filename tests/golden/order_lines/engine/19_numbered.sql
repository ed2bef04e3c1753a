-- transform numbered: good rows
CREATE OR REPLACE TEMPORARY VIEW `numbered` AS
SELECT
  `order_id`,
  `customer`,
  `items`,
  `line_count`,
  `sku`,
  `qty`,
  `$out.sku_number` AS `sku_number`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$fan`
FROM `numbered.checked`
WHERE
  `$err` IS NULL AND `$keep`;
