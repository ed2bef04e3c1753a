-- transform priced: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `priced.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN NOT `unit_price` IS NULL
      AND (
        NOT `unit_price` IS NULL AND `$shared.0` IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CXL_CONVERSION_FAILED(`unit_price`, 'Float')
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        `unit_price` AS value
      )
    END
  END AS `$err`
FROM `priced.eval`;
