-- transform_chain by hand: parse, derive, filter, write; rows whose amount does not
-- parse are dropped (no DLQ).
CREATE OR REPLACE TEMPORARY VIEW hand_orders
USING csv OPTIONS (path './data/orders/*.csv', header 'true');

INSERT OVERWRITE DIRECTORY './out/hand/transform_chain/orders' USING csv OPTIONS (header 'true')
SELECT order_id, customer_id, department, region, day, qty, status, amount_int, total, band,
       concat(department, '/', band) AS label
FROM (
  SELECT order_id, customer_id, department, upper(region) AS region, day,
         CAST(qty AS BIGINT) AS qty, status, amount_int,
         amount_int * CAST(qty AS BIGINT) AS total,
         CASE WHEN amount_int * CAST(qty AS BIGINT) >= 1000000 THEN 'high'
              WHEN amount_int * CAST(qty AS BIGINT) >= 100000 THEN 'mid'
              ELSE 'low' END AS band
  FROM (SELECT *, TRY_CAST(amount AS BIGINT) AS amount_int FROM hand_orders) AS o
  WHERE amount_int IS NOT NULL AND status <> 'returned'
) AS t
ORDER BY order_id;
