-- source employees: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `employees.bytes`
USING TEXT
OPTIONS ('path'='./data/employees.csv');
