-- transform parse: good rows
CREATE OR REPLACE TEMPORARY VIEW `parse` AS
SELECT
  `order_id`,
  `line`,
  `region`,
  `dept`,
  `amount`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`
FROM `parse.carry`
WHERE
  `$live`;
