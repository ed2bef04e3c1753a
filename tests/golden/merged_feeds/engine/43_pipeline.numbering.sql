-- where each file's rows start: turns the positions in $source.row into row numbers for the DLQ (codegen/numbering.py)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.numbering` AS
SELECT
  CAST(0 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `store_a.files` AS f
JOIN `store_a.offsets` AS o
  ON f.`$file` = o.`$file`
UNION ALL
SELECT
  CAST(1 AS BIGINT) AS `$source.order`,
  f.`$rank`,
  o.`$first`,
  o.`$before`
FROM `store_b.files` AS f
JOIN `store_b.offsets` AS o
  ON f.`$file` = o.`$file`;
