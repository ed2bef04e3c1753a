-- source store_b: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `store_b.scan`
USING CSV
OPTIONS ('path'='./data/store_b.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');
