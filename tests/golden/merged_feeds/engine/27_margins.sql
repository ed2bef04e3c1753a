-- transform margins: good rows
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   store <- $source.name [reads $source.name]
--   margin_pct <- ((price - cost) / cost * 100.0).round(1) [reads feeds.price, feeds.cost]
--   updated_day <- updated.format_date("%Y-%m-%d") [reads feeds.updated]
--   flag <- if price < cost then "loss" else if price == cost then "even" else "ok" [reads feeds.price, feeds.cost]
--   unchanged from feeds: sku, price, cost, updated, $ck.sku
CREATE OR REPLACE TEMPORARY VIEW `margins` AS
SELECT
  `sku`,
  `price`,
  `cost`,
  `updated`,
  `$out.store` AS `store`,
  `$out.margin_pct` AS `margin_pct`,
  `$out.updated_day` AS `updated_day`,
  `$out.flag` AS `flag`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.sku`
FROM `margins.eval`
WHERE
  `$err` IS NULL AND `$keep`;
