-- retraction.news: run after each retraction pass: a row when it found new triggers
SELECT 1 AS new FROM (SELECT * FROM `$pipeline.retract_candidates` EXCEPT SELECT * FROM `$pipeline.retracted`) AS t LIMIT 1;
