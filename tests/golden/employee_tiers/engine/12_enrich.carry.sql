-- transform enrich: every row, still live or not, with its DLQ entry (a fused chain, codegen/fusion.py)
CREATE OR REPLACE TEMPORARY VIEW `enrich.carry` AS
SELECT
  `id`,
  `$out.name` AS `name`,
  `dept`,
  `$out.salary` AS `salary`,
  `hired`,
  `bonus_pct`,
  `active`,
  `$out.tier` AS `tier`,
  `$out.bonus` AS `bonus`,
  `$out.hired_year` AS `hired_year`,
  `$out.team` AS `team`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$live` AND `$err` IS NULL AND `$keep` AS `$live`,
  CASE
    WHEN NOT `$err` IS NULL
    THEN STRUCT(
      `$source.file` AS `_cxl_dlq_source_file`,
      `$source.name` AS `_cxl_dlq_source_name`,
      CAST(`$source.row` AS BIGINT) AS `_cxl_dlq_source_row`,
      `$err`.`field` AS `_cxl_dlq_triggering_field`,
      `$err`.`value` AS `_cxl_dlq_triggering_value`,
      `$err`.`category` AS `_cxl_dlq_error_category`,
      `$err`.`detail` AS `_cxl_dlq_error_detail`,
      'transform:enrich' AS `_cxl_dlq_stage`,
      CAST(NULL AS STRING) AS `_cxl_dlq_route`,
      TRUE AS `_cxl_dlq_trigger`,
      CAST(`$source.order` AS BIGINT) AS `$source.order`,
      'enrich' AS `$node`,
      CAST(MAP(
        'id',
        CAST(`id` AS STRING),
        'name',
        `name`,
        'dept',
        `dept`,
        'salary',
        `salary`,
        'hired',
        CAST(`hired` AS STRING),
        'bonus_pct',
        CASE
          WHEN `bonus_pct` IS NULL
          THEN CAST(NULL AS STRING)
          WHEN ISNAN(`bonus_pct`)
          THEN 'NaN'
          WHEN `bonus_pct` = CAST('Infinity' AS DOUBLE)
          THEN 'inf'
          WHEN `bonus_pct` = CAST('-Infinity' AS DOUBLE)
          THEN '-inf'
          WHEN LOCATE('E', CAST(`bonus_pct` AS STRING)) = 0
          THEN CASE
            WHEN CAST(`bonus_pct` AS STRING) LIKE '%.0'
            THEN SUBSTRING(CAST(`bonus_pct` AS STRING), 1, LENGTH(CAST(`bonus_pct` AS STRING)) - 2)
            ELSE CAST(`bonus_pct` AS STRING)
          END
          ELSE COALESCE(
            REGEXP_REPLACE(
              REGEXP_REPLACE(
                CASE
                  WHEN ABS(`bonus_pct`) >= CAST('1e+18' AS DOUBLE)
                  THEN CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 0)) AS STRING)
                  WHEN ABS(`bonus_pct`) >= CAST('0.01' AS DOUBLE)
                  THEN CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 18)) AS STRING)
                  ELSE CAST(TRY_CAST(CAST(`bonus_pct` AS STRING) AS DECIMAL(38, 37)) AS STRING)
                END,
                '(\\.[0-9]*?)0+$',
                '$1'
              ),
              '\\.$',
              ''
            ),
            CAST(`bonus_pct` AS STRING)
          )
        END,
        'active',
        CAST(`active` AS STRING)
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `enrich.eval`;
