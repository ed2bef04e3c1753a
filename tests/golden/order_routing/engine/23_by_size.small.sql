-- route by_size: branch small
CREATE OR REPLACE TEMPORARY VIEW `by_size.small` AS
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
  `$when.small`;
