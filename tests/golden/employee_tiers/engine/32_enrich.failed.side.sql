-- enrich.failed.side: run after the write of roster when it split off failing rows: enrich.failed reads them
CREATE OR REPLACE TEMPORARY VIEW `enrich.failed` AS
SELECT FROM_JSON(`value`, 'STRUCT<`_cxl_dlq_source_file`: STRING, `_cxl_dlq_source_name`: STRING, `_cxl_dlq_source_row`: BIGINT, `_cxl_dlq_triggering_field`: STRING, `_cxl_dlq_triggering_value`: STRING, `_cxl_dlq_error_category`: STRING, `_cxl_dlq_error_detail`: STRING, `_cxl_dlq_stage`: STRING, `_cxl_dlq_route`: STRING, `_cxl_dlq_trigger`: BOOLEAN, `$source.order`: BIGINT, `$node`: STRING, `$payload`: MAP<STRING, STRING>>') AS `$dlq`
FROM `text`.`./out/roster.csv.clinker-staging/failures.jsonl`;
