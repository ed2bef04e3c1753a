-- transform ranked: each row's first failure ($err), in statement order
CREATE OR REPLACE TEMPORARY VIEW `ranked.checked` AS
SELECT
  *,
  TRUE AS `$keep`,
  CASE
    WHEN `$retracted`
    THEN CAST(NULL AS STRUCT<category: STRING, detail: STRING, field: STRING, value: STRING>)
    ELSE CASE
      WHEN `region` IS NULL OR `$retracted` IS NULL
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          'field \'rank\': ',
          'type mismatch: expected a window partition, got a null partition key'
        ) AS detail,
        'rank' AS field,
        CAST(NULL AS STRING) AS value
      )
    END
  END AS `$err`
FROM `ranked.eval`;
