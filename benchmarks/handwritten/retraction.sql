-- retraction by hand: daily totals per department (sum, count, min, avg) with a
-- running and a whole-department total; unparsable amounts are left out.
CREATE OR REPLACE TEMPORARY VIEW hand_orders
USING csv OPTIONS (path './data/orders/*.csv', header 'true');

INSERT OVERWRITE DIRECTORY './out/hand/retraction/daily' USING csv OPTIONS (header 'true')
SELECT department, day, total, lines, smallest, mean,
       SUM(total) OVER (PARTITION BY department ORDER BY day
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_total,
       SUM(total) OVER (PARTITION BY department) AS department_total
FROM (
  SELECT department, day, SUM(amount_int) AS total, COUNT(*) AS lines,
         MIN(amount_int) AS smallest, AVG(amount_int) AS mean
  FROM (SELECT *, TRY_CAST(amount AS BIGINT) AS amount_int FROM hand_orders) AS o
  WHERE amount_int IS NOT NULL
  GROUP BY department, day
) AS g
ORDER BY department, day;
