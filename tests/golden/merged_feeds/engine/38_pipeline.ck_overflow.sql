-- correlation: groups over max_group_buffer (100000), with their first record
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.ck_overflow` AS
SELECT
  members.`$ck.sku`,
  MIN(
    STRUCT(
      members.`$source.order` AS o,
      members.`$source.row` AS r,
      members.`$source.name` AS s
    )
  ) AS `$first`
FROM `$pipeline.ck_members` AS members
LEFT SEMI JOIN `$pipeline.ck_big` AS big
  ON `big`.`$ck.sku` IS NOT DISTINCT FROM `members`.`$ck.sku`
GROUP BY
  members.`$ck.sku`;
