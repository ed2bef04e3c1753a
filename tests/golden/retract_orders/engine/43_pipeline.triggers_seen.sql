-- DLQ triggers of earlier passes (none before the first)
CREATE OR REPLACE TEMPORARY VIEW `$pipeline.triggers_seen` AS
SELECT
  *
FROM `$pipeline.triggers_live`
WHERE
  FALSE;
