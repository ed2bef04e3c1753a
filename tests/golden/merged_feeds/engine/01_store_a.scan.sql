-- source store_a: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `store_a.scan`
USING CSV
OPTIONS ('path'='./data/store_a.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');
