-- source store_a: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `store_a.bytes`
USING TEXT
OPTIONS ('path'='./data/store_a.csv');
