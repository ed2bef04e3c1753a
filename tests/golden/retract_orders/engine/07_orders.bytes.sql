-- source orders: its files' lines as bytes (not decoded), for the UTF-8 check
CREATE OR REPLACE TEMPORARY VIEW `orders.bytes`
USING TEXT
OPTIONS ('path'='./data/orders.csv');
