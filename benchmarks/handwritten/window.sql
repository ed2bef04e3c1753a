-- window by hand: per customer, the total quantity, the line's rank by day and the
-- previous line's day; rows whose amount is not an integer are left out.
CREATE OR REPLACE TEMPORARY VIEW hand_orders
USING csv OPTIONS (path './data/orders/*.csv', header 'true');

INSERT OVERWRITE DIRECTORY './out/hand/window/orders' USING csv OPTIONS (header 'true')
SELECT order_id, customer_id, day, amount,
       SUM(qty) OVER (PARTITION BY customer_id) AS customer_qty,
       ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY day, order_id) AS line_rank,
       LAG(day) OVER (PARTITION BY customer_id ORDER BY day, order_id) AS previous_day
FROM (
  SELECT order_id, customer_id, day, TRY_CAST(amount AS BIGINT) AS amount,
         CAST(qty AS BIGINT) AS qty
  FROM hand_orders
) AS o
WHERE amount IS NOT NULL
ORDER BY order_id;
