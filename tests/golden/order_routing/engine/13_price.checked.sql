-- transform price: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `price.checked` AS
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
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`amount`, 'Float')) AS detail,
        CAST(NULL AS STRING) AS field,
        `amount` AS value
      )
      WHEN NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
      AND (
        NOT CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT)) IS NULL
        AND CXL_FLOAT_TO_INT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) IS NULL
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CXL_CONVERSION_FAILED(
            CXL_FLOAT_TEXT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))),
            'Int'
          )
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        CXL_FLOAT_TEXT(CXL_FLOAT_ROUND(`$shared.0` * CAST('100.0' AS DOUBLE), CAST(0 AS BIGINT))) AS value
      )
    END
  END AS `$err`
FROM `price.eval`;
