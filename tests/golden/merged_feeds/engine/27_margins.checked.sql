-- transform margins: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `margins.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `cost` = CAST('0.0' AS DOUBLE)
    THEN STRUCT(
      'type_coercion_failure' AS category,
      CONCAT(
        'row ',
        CAST(`$source.row` AS STRING),
        ': ',
        'field \'margin_pct\': ',
        'division by zero'
      ) AS detail,
      'margin_pct' AS field,
      CAST(NULL AS STRING) AS value
    )
  END AS `$err`
FROM `margins.eval`;
