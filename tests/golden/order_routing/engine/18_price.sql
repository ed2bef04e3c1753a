-- transform price: good rows
CREATE OR REPLACE TEMPORARY VIEW `price` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `cents`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `price.carry`
WHERE
  `$live`;
