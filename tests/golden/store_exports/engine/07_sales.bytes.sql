-- source sales: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `sales.bytes`
USING TEXT
OPTIONS ('path'='./data/store_*.csv');
