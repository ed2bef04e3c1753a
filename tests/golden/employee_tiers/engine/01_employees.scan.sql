-- source employees: read csv as text
CREATE OR REPLACE TEMPORARY VIEW `employees.scan`
USING CSV
OPTIONS ('path'='./data/employees.csv', 'header'='true', 'sep'=',', 'quote'='"', 'escape'='"', 'multiLine'='true', 'mode'='FAILFAST', 'inferSchema'='false', 'encoding'='UTF-8');
