-- correlation: groups over max_group_buffer (100000), with their first record
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_overflow` AS
SELECT
  members.`$ck.order_id`,
  MIN(
    STRUCT(
      members.`$source.order` AS o,
      members.`$source.row` AS r,
      members.`$source.name` AS s
    )
  ) AS `$first`
FROM `$pipeline.ck_members` AS members
LEFT SEMI JOIN `$pipeline.ck_big` AS big
  ON `big`.`$ck.order_id` IS NOT DISTINCT FROM `members`.`$ck.order_id`
GROUP BY
  members.`$ck.order_id`;
