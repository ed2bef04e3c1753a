-- route by_size: the statements that hold its logic (steps 19, 20, 21 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   unchanged from price: order_id, line, customer, amount, region, cents, $ck.order_id
--   rows: big: cents >= 10000

-- step 19
-- route by_size (exclusive): conditions
CREATE OR REPLACE TEMPORARY VIEW `by_size.eval` AS
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
  `$ck.order_id`,
  COALESCE((
    `cents` >= CAST(10000 AS BIGINT)
  ), FALSE) AS `$when.big`,
  NOT COALESCE((
    `cents` >= CAST(10000 AS BIGINT)
  ), FALSE) AS `$when.small`,
  CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>) AS `$err`
FROM `price`;

-- step 20
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
  `$err` IS NULL AND `$when.big`;

-- step 21
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
  `$err` IS NULL AND `$when.small`;
