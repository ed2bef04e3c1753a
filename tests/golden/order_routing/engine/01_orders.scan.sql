-- source orders: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `orders.scan`
USING CSV
OPTIONS ('path'='./data/orders.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');
