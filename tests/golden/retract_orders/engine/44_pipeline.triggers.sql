-- DLQ triggers of every pass
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers` AS
SELECT DISTINCT
  *
FROM (
  SELECT
    *
  FROM `$pipeline.triggers_seen`
  UNION ALL
  SELECT
    *
  FROM `$pipeline.triggers_live`
) AS triggers;
