-- export.listed: run after the write of export: the files it wrote one output for
SELECT DISTINCT `$path` AS p FROM `sales.files` ORDER BY p;
