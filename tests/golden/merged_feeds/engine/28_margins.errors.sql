-- transform margins: rows whose evaluation failed
CREATE OR REPLACE TEMPORARY VIEW `margins.errors` AS
SELECT
  `$source.file` AS `_cxl_dlq_source_file`,
  `$source.name` AS `_cxl_dlq_source_name`,
  CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
  `$err`.`field` AS `_cxl_dlq_triggering_field`,
  `$err`.`value` AS `_cxl_dlq_triggering_value`,
  `$err`.`category` AS `_cxl_dlq_error_category`,
  `$err`.`detail` AS `_cxl_dlq_error_detail`,
  'transform:margins' AS `_cxl_dlq_stage`,
  CAST(NULL AS STRING) AS `_cxl_dlq_route`,
  TRUE AS `_cxl_dlq_trigger`,
  CAST(`$source.order` AS BIGINT) AS `$source.order`,
  `sku`,
  CASE
    WHEN `price` IS NULL
    THEN CAST(NULL AS STRING)
    WHEN ISNAN(`price`)
    THEN 'NaN'
    WHEN `price` = CAST('Infinity' AS DOUBLE)
    THEN 'inf'
    WHEN `price` = CAST('-Infinity' AS DOUBLE)
    THEN '-inf'
    WHEN LOCATE('E', CAST(`price` AS STRING)) = 0
    THEN CASE
      WHEN CAST(`price` AS STRING) LIKE '%.0'
      THEN SUBSTRING(CAST(`price` AS STRING), 1, LENGTH(CAST(`price` AS STRING)) - 2)
      ELSE CAST(`price` AS STRING)
    END
    ELSE COALESCE(
      REGEXP_REPLACE(
        REGEXP_REPLACE(
          CASE
            WHEN ABS(`price`) >= CAST('1e+18' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 0)) AS STRING)
            WHEN ABS(`price`) >= CAST('0.01' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 18)) AS STRING)
            ELSE CAST(TRY_CAST(CAST(`price` AS STRING) AS DECIMAL(38, 37)) AS STRING)
          END,
          '(\\.[0-9]*?)0+$',
          '$1'
        ),
        '\\.$',
        ''
      ),
      CAST(`price` AS STRING)
    )
  END AS `price`,
  CASE
    WHEN `cost` IS NULL
    THEN CAST(NULL AS STRING)
    WHEN ISNAN(`cost`)
    THEN 'NaN'
    WHEN `cost` = CAST('Infinity' AS DOUBLE)
    THEN 'inf'
    WHEN `cost` = CAST('-Infinity' AS DOUBLE)
    THEN '-inf'
    WHEN LOCATE('E', CAST(`cost` AS STRING)) = 0
    THEN CASE
      WHEN CAST(`cost` AS STRING) LIKE '%.0'
      THEN SUBSTRING(CAST(`cost` AS STRING), 1, LENGTH(CAST(`cost` AS STRING)) - 2)
      ELSE CAST(`cost` AS STRING)
    END
    ELSE COALESCE(
      REGEXP_REPLACE(
        REGEXP_REPLACE(
          CASE
            WHEN ABS(`cost`) >= CAST('1e+18' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 0)) AS STRING)
            WHEN ABS(`cost`) >= CAST('0.01' AS DOUBLE)
            THEN CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 18)) AS STRING)
            ELSE CAST(TRY_CAST(CAST(`cost` AS STRING) AS DECIMAL(38, 37)) AS STRING)
          END,
          '(\\.[0-9]*?)0+$',
          '$1'
        ),
        '\\.$',
        ''
      ),
      CAST(`cost` AS STRING)
    )
  END AS `cost`,
  CONCAT(
    DATE_FORMAT(`updated`, 'yyyy-MM-dd\'T\'HH:mm:ss'),
    CASE
      WHEN DATE_FORMAT(`updated`, 'SSSSSS') = '000000'
      THEN ''
      WHEN SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 4, 3) = '000'
      THEN CONCAT('.', SUBSTRING(DATE_FORMAT(`updated`, 'SSSSSS'), 1, 3))
      ELSE CONCAT('.', DATE_FORMAT(`updated`, 'SSSSSS'))
    END
  ) AS `updated`,
  `$ck.sku`
FROM `margins.eval`
WHERE
  NOT `$err` IS NULL;
