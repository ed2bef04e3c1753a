-- source sales: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `sales.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`sale_id`,
  scan.`sku`,
  scan.`qty`,
  scan.`unit_price`,
  'sales' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(0 AS BIGINT) AS `$source.order`
FROM `sales.split` AS scan
JOIN `sales.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `sales.rows` AS
-- SELECT
--   scan.`sale_id`,
--   scan.`sku`,
--   scan.`qty`,
--   scan.`unit_price`,
--   'sales' AS `$source.name`,
--   scan.`$at`.`$path` AS `$source.file`,
--   `scan`.`$at`.`$rank` * CAST(8589934592 AS BIGINT) + (
--     `scan`.`$mid` % CAST(8589934592 AS BIGINT)
--   ) AS `$source.row`,
--   CAST(0 AS BIGINT) AS `$source.order`
-- FROM (
--   SELECT
--     *,
--     ELEMENT_AT(
--       (
--         SELECT
--           MAP_FROM_ENTRIES(
--             COLLECT_LIST(
--               STRUCT(`$file` AS `key`, STRUCT(`$path` AS `$path`, `$rank` AS `$rank`) AS `value`)
--             )
--           )
--         FROM `sales.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `sales.split`
-- ) AS scan;
