-- combine by hand: order lines joined to their customer (inner join); rows whose
-- amount does not parse are dropped.
CREATE OR REPLACE TEMPORARY VIEW hand_orders
USING csv OPTIONS (path './data/orders/*.csv', header 'true');

CREATE OR REPLACE TEMPORARY VIEW hand_customers
USING csv OPTIONS (path './data/customers.csv', header 'true');

INSERT OVERWRITE DIRECTORY './out/hand/combine/orders' USING csv OPTIONS (header 'true')
SELECT o.order_id, o.customer_id, c.name, c.segment, c.country,
       TRY_CAST(o.amount AS BIGINT) AS amount_int, CAST(o.qty AS BIGINT) AS qty
FROM hand_orders AS o
JOIN hand_customers AS c ON o.customer_id = c.customer_id
WHERE TRY_CAST(o.amount AS BIGINT) IS NOT NULL
ORDER BY o.order_id;
