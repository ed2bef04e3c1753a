-- source store_b: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `store_b.bytes`
USING TEXT
OPTIONS ('path'='./data/store_b.csv');
