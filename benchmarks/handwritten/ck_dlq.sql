-- ck_dlq by hand: parse and route by region into two files; a row whose amount does
-- not parse is dropped on its own (no correlation groups, no DLQ).
CREATE OR REPLACE TEMPORARY VIEW hand_orders
USING csv OPTIONS (path './data/orders/*.csv', header 'true');

CREATE OR REPLACE TEMPORARY VIEW hand_valid AS
SELECT order_id, customer_id, department, region, day, CAST(qty AS BIGINT) AS qty, status,
       amount_int, amount_int * CAST(qty AS BIGINT) AS total
FROM (SELECT *, TRY_CAST(amount AS BIGINT) AS amount_int FROM hand_orders) AS o
WHERE amount_int IS NOT NULL;

INSERT OVERWRITE DIRECTORY './out/hand/ck_dlq/international' USING csv OPTIONS (header 'true')
SELECT * FROM hand_valid WHERE region = 'intl' ORDER BY order_id;

INSERT OVERWRITE DIRECTORY './out/hand/ck_dlq/domestic' USING csv OPTIONS (header 'true')
SELECT * FROM hand_valid WHERE region <> 'intl' ORDER BY order_id;
