-- route by_size: branch big
CREATE OR REPLACE TEMPORARY VIEW `by_size.big` AS
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
FROM `by_size.eval`
WHERE
  `$when.big`;
