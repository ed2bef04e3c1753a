-- source sales: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `sales.scan`
USING CSV
OPTIONS ('path'='./data/store_*.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');
