-- transform parse: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `parse.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN NOT `amount` IS NULL AND (
        NOT `amount` IS NULL AND `$shared.0` IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          'field \'amount\': ',
          CXL_CONVERSION_FAILED(`amount`, 'Int')
        ) AS detail,
        'amount' AS field,
        `amount` AS value
      )
    END
  END AS `$err`
FROM `parse.eval`;
