-- transform enrich: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `enrich.checked` AS
SELECT
  *,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN `active`
      AND (
        NOT `salary` IS NULL AND (
          NOT `salary` IS NULL AND `$shared.0` IS NULL
        )
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT('row ', CAST(`$source.row` AS STRING), ': ', CXL_CONVERSION_FAILED(`salary`, 'Int')) AS detail,
        CAST(NULL AS STRING) AS field,
        `salary` AS value
      )
    END
  END AS `$err`
FROM `enrich.eval`;
