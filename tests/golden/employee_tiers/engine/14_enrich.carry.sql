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
        CXL_FLOAT_TEXT(`bonus_pct`),
        'active',
        CAST(`active` AS STRING)
      ) AS MAP<STRING, STRING>) AS `$payload`
    )
    ELSE `$dlq`
  END AS `$dlq`
FROM `enrich.checked`;
