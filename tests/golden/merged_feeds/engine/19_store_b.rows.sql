-- source store_b: stamp $source.row with row positions
CREATE OR REPLACE TEMPORARY VIEW `store_b.rows` AS
SELECT /*+ BROADCAST(files) */
  scan.`sku`,
  scan.`price`,
  scan.`cost`,
  scan.`updated`,
  'store_b' AS `$source.name`,
  files.`$path` AS `$source.file`,
  `files`.`$rank` * CAST(8589934592 AS BIGINT) + (
    `scan`.`$mid` % CAST(8589934592 AS BIGINT)
  ) AS `$source.row`,
  CAST(1 AS BIGINT) AS `$source.order`
FROM `store_b.split` AS scan
JOIN `store_b.files` AS files
  ON scan.`$file` = files.`$file`;
-- when the listing finds at most 16 files, the runner defines it instead as below, with the listed files in a literal MAP
-- (each one's $path and $rank) in place of the subquery: no job builds the map
-- CREATE OR REPLACE TEMPORARY VIEW `store_b.rows` AS
-- SELECT
--   scan.`sku`,
--   scan.`price`,
--   scan.`cost`,
--   scan.`updated`,
--   'store_b' AS `$source.name`,
--   scan.`$at`.`$path` AS `$source.file`,
--   `scan`.`$at`.`$rank` * CAST(8589934592 AS BIGINT) + (
--     `scan`.`$mid` % CAST(8589934592 AS BIGINT)
--   ) AS `$source.row`,
--   CAST(1 AS BIGINT) AS `$source.order`
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
--         FROM `store_b.files`
--       ),
--       `$file`
--     ) AS `$at`
--   FROM `store_b.split`
-- ) AS scan;
