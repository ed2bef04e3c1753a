-- transform price: the statements that hold its logic (step 11 of run.sql)
-- column lineage: column <- CXL or origin (lets) [reads input.column]
--   customer <- if customer.is_empty() then "unknown" else customer [reads orders.customer]
--   region <- region.upper() [reads orders.region]
--   cents <- cents (let cents = (amount.to_float() * 100.0).round().to_int()) [reads orders.amount]
--   unchanged from orders: order_id, line, amount, $ck.order_id

-- step 11
-- transform price: evaluate the CXL
CREATE OR REPLACE TEMPORARY VIEW `price.eval` AS
SELECT
  `order_id`,
  `line`,
  `customer`,
  `amount`,
  `region`,
  `$source.name`,
  `$source.file`,
  `$source.row`,
  `$source.order`,
  `$ck.order_id`,
  `$live`,
  `$dlq`,
  CASE WHEN `$live` THEN `order_id` END AS `$out.order_id`,
  CASE WHEN `$live` THEN `line` END AS `$out.line`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE((
        `customer` IS NULL OR `customer` = ''
      ), FALSE)
      THEN 'unknown'
      ELSE `customer`
    END
  END AS `$out.customer`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN ISNAN(
        GET(
          TRANSFORM(
            ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
            `_cxl_s1` -> CASE
              WHEN `_cxl_s1` IS NULL
              THEN NULL
              WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
              THEN CAST('NaN' AS DOUBLE)
              ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
            END
          ),
          0
        )
      )
      THEN CAST(0 AS BIGINT)
      WHEN GET(
        TRANSFORM(
          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
          `_cxl_s1` -> CASE
            WHEN `_cxl_s1` IS NULL
            THEN NULL
            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
            THEN CAST('NaN' AS DOUBLE)
            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
          END
        ),
        0
      ) >= CAST('9.223372036854776e+18' AS DOUBLE)
      THEN CAST(9223372036854775807 AS BIGINT)
      WHEN GET(
        TRANSFORM(
          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
          `_cxl_s1` -> CASE
            WHEN `_cxl_s1` IS NULL
            THEN NULL
            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
            THEN CAST('NaN' AS DOUBLE)
            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
          END
        ),
        0
      ) <= CAST('-9.223372036854776e+18' AS DOUBLE)
      THEN CAST('-9223372036854775808' AS BIGINT)
      ELSE CAST(GET(
        TRANSFORM(
          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
          `_cxl_s1` -> CASE
            WHEN `_cxl_s1` IS NULL
            THEN NULL
            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
            THEN CAST('NaN' AS DOUBLE)
            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
          END
        ),
        0
      ) AS BIGINT)
    END
  END AS `$out.cents`,
  CASE WHEN `$live` THEN UPPER(`region`) END AS `$out.region`,
  CASE WHEN `$live` THEN TRUE END AS `$keep`,
  CASE
    WHEN `$live`
    THEN CASE
      WHEN COALESCE(
        (
          NOT `amount` IS NULL AND (
            NOT `amount` IS NULL AND `$shared.0` IS NULL
          )
        ),
        FALSE
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CONCAT('conversion failed: cannot convert \'', `amount`, '\' to Float')
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        `amount` AS value
      )
      WHEN COALESCE(
        (
          NOT GET(
            TRANSFORM(
              ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
              `_cxl_s1` -> CASE
                WHEN `_cxl_s1` IS NULL
                THEN NULL
                WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                THEN CAST('NaN' AS DOUBLE)
                ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
              END
            ),
            0
          ) IS NULL
          AND (
            NOT GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            ) IS NULL
            AND CASE
              WHEN ISNAN(
                GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                )
              )
              THEN CAST(0 AS BIGINT)
              WHEN GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) >= CAST('9.223372036854776e+18' AS DOUBLE)
              THEN CAST(9223372036854775807 AS BIGINT)
              WHEN GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) <= CAST('-9.223372036854776e+18' AS DOUBLE)
              THEN CAST('-9223372036854775808' AS BIGINT)
              ELSE CAST(GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) AS BIGINT)
            END IS NULL
          )
        ),
        FALSE
      )
      THEN STRUCT(
        'type_coercion_failure' AS category,
        CONCAT(
          'row ',
          CAST(`$source.row` AS STRING),
          ': ',
          CONCAT(
            'conversion failed: cannot convert \'',
            CASE
              WHEN GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) IS NULL
              THEN CAST(NULL AS STRING)
              WHEN ISNAN(
                GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                )
              )
              THEN 'NaN'
              WHEN GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) = CAST('Infinity' AS DOUBLE)
              THEN 'inf'
              WHEN GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) = CAST('-Infinity' AS DOUBLE)
              THEN '-inf'
              WHEN LOCATE(
                'E',
                CAST(GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                ) AS STRING)
              ) = 0
              THEN CASE
                WHEN CAST(GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                ) AS STRING) LIKE '%.0'
                THEN SUBSTRING(
                  CAST(GET(
                    TRANSFORM(
                      ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                      `_cxl_s1` -> CASE
                        WHEN `_cxl_s1` IS NULL
                        THEN NULL
                        WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                        THEN CAST('NaN' AS DOUBLE)
                        ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                      END
                    ),
                    0
                  ) AS STRING),
                  1,
                  LENGTH(
                    CAST(GET(
                      TRANSFORM(
                        ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                        `_cxl_s1` -> CASE
                          WHEN `_cxl_s1` IS NULL
                          THEN NULL
                          WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                          THEN CAST('NaN' AS DOUBLE)
                          ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                        END
                      ),
                      0
                    ) AS STRING)
                  ) - 2
                )
                ELSE CAST(GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                ) AS STRING)
              END
              ELSE COALESCE(
                REGEXP_REPLACE(
                  REGEXP_REPLACE(
                    CASE
                      WHEN ABS(
                        GET(
                          TRANSFORM(
                            ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                            `_cxl_s1` -> CASE
                              WHEN `_cxl_s1` IS NULL
                              THEN NULL
                              WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                              THEN CAST('NaN' AS DOUBLE)
                              ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                            END
                          ),
                          0
                        )
                      ) >= CAST('1e+18' AS DOUBLE)
                      THEN CAST(TRY_CAST(CAST(GET(
                        TRANSFORM(
                          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                          `_cxl_s1` -> CASE
                            WHEN `_cxl_s1` IS NULL
                            THEN NULL
                            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                            THEN CAST('NaN' AS DOUBLE)
                            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                          END
                        ),
                        0
                      ) AS STRING) AS DECIMAL(38, 0)) AS STRING)
                      WHEN ABS(
                        GET(
                          TRANSFORM(
                            ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                            `_cxl_s1` -> CASE
                              WHEN `_cxl_s1` IS NULL
                              THEN NULL
                              WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                              THEN CAST('NaN' AS DOUBLE)
                              ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                            END
                          ),
                          0
                        )
                      ) >= CAST('0.01' AS DOUBLE)
                      THEN CAST(TRY_CAST(CAST(GET(
                        TRANSFORM(
                          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                          `_cxl_s1` -> CASE
                            WHEN `_cxl_s1` IS NULL
                            THEN NULL
                            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                            THEN CAST('NaN' AS DOUBLE)
                            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                          END
                        ),
                        0
                      ) AS STRING) AS DECIMAL(38, 18)) AS STRING)
                      ELSE CAST(TRY_CAST(CAST(GET(
                        TRANSFORM(
                          ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                          `_cxl_s1` -> CASE
                            WHEN `_cxl_s1` IS NULL
                            THEN NULL
                            WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                            THEN CAST('NaN' AS DOUBLE)
                            ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                          END
                        ),
                        0
                      ) AS STRING) AS DECIMAL(38, 37)) AS STRING)
                    END,
                    '(\\.[0-9]*?)0+$',
                    '$1'
                  ),
                  '\\.$',
                  ''
                ),
                CAST(GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                ) AS STRING)
              )
            END,
            '\' to Int'
          )
        ) AS detail,
        CAST(NULL AS STRING) AS field,
        CASE
          WHEN GET(
            TRANSFORM(
              ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
              `_cxl_s1` -> CASE
                WHEN `_cxl_s1` IS NULL
                THEN NULL
                WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                THEN CAST('NaN' AS DOUBLE)
                ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
              END
            ),
            0
          ) IS NULL
          THEN CAST(NULL AS STRING)
          WHEN ISNAN(
            GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            )
          )
          THEN 'NaN'
          WHEN GET(
            TRANSFORM(
              ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
              `_cxl_s1` -> CASE
                WHEN `_cxl_s1` IS NULL
                THEN NULL
                WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                THEN CAST('NaN' AS DOUBLE)
                ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
              END
            ),
            0
          ) = CAST('Infinity' AS DOUBLE)
          THEN 'inf'
          WHEN GET(
            TRANSFORM(
              ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
              `_cxl_s1` -> CASE
                WHEN `_cxl_s1` IS NULL
                THEN NULL
                WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                THEN CAST('NaN' AS DOUBLE)
                ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
              END
            ),
            0
          ) = CAST('-Infinity' AS DOUBLE)
          THEN '-inf'
          WHEN LOCATE(
            'E',
            CAST(GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            ) AS STRING)
          ) = 0
          THEN CASE
            WHEN CAST(GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            ) AS STRING) LIKE '%.0'
            THEN SUBSTRING(
              CAST(GET(
                TRANSFORM(
                  ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                  `_cxl_s1` -> CASE
                    WHEN `_cxl_s1` IS NULL
                    THEN NULL
                    WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                    THEN CAST('NaN' AS DOUBLE)
                    ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                  END
                ),
                0
              ) AS STRING),
              1,
              LENGTH(
                CAST(GET(
                  TRANSFORM(
                    ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                    `_cxl_s1` -> CASE
                      WHEN `_cxl_s1` IS NULL
                      THEN NULL
                      WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                      THEN CAST('NaN' AS DOUBLE)
                      ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                    END
                  ),
                  0
                ) AS STRING)
              ) - 2
            )
            ELSE CAST(GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            ) AS STRING)
          END
          ELSE COALESCE(
            REGEXP_REPLACE(
              REGEXP_REPLACE(
                CASE
                  WHEN ABS(
                    GET(
                      TRANSFORM(
                        ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                        `_cxl_s1` -> CASE
                          WHEN `_cxl_s1` IS NULL
                          THEN NULL
                          WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                          THEN CAST('NaN' AS DOUBLE)
                          ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                        END
                      ),
                      0
                    )
                  ) >= CAST('1e+18' AS DOUBLE)
                  THEN CAST(TRY_CAST(CAST(GET(
                    TRANSFORM(
                      ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                      `_cxl_s1` -> CASE
                        WHEN `_cxl_s1` IS NULL
                        THEN NULL
                        WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                        THEN CAST('NaN' AS DOUBLE)
                        ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                      END
                    ),
                    0
                  ) AS STRING) AS DECIMAL(38, 0)) AS STRING)
                  WHEN ABS(
                    GET(
                      TRANSFORM(
                        ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                        `_cxl_s1` -> CASE
                          WHEN `_cxl_s1` IS NULL
                          THEN NULL
                          WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                          THEN CAST('NaN' AS DOUBLE)
                          ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                        END
                      ),
                      0
                    )
                  ) >= CAST('0.01' AS DOUBLE)
                  THEN CAST(TRY_CAST(CAST(GET(
                    TRANSFORM(
                      ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                      `_cxl_s1` -> CASE
                        WHEN `_cxl_s1` IS NULL
                        THEN NULL
                        WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                        THEN CAST('NaN' AS DOUBLE)
                        ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                      END
                    ),
                    0
                  ) AS STRING) AS DECIMAL(38, 18)) AS STRING)
                  ELSE CAST(TRY_CAST(CAST(GET(
                    TRANSFORM(
                      ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                      `_cxl_s1` -> CASE
                        WHEN `_cxl_s1` IS NULL
                        THEN NULL
                        WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                        THEN CAST('NaN' AS DOUBLE)
                        ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                      END
                    ),
                    0
                  ) AS STRING) AS DECIMAL(38, 37)) AS STRING)
                END,
                '(\\.[0-9]*?)0+$',
                '$1'
              ),
              '\\.$',
              ''
            ),
            CAST(GET(
              TRANSFORM(
                ARRAY(`$shared.0` * CAST('100.0' AS DOUBLE)),
                `_cxl_s1` -> CASE
                  WHEN `_cxl_s1` IS NULL
                  THEN NULL
                  WHEN POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)) = CAST('0.0' AS DOUBLE)
                  THEN CAST('NaN' AS DOUBLE)
                  ELSE ROUND(`_cxl_s1` * POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT)), 0) / POWER(CAST('10.0' AS DOUBLE), CAST(0 AS BIGINT))
                END
              ),
              0
            ) AS STRING)
          )
        END AS value
      )
    END
  END AS `$err`
FROM (
  SELECT
    *,
    CASE
      WHEN COALESCE(`amount` RLIKE '^[+-]?(?i:nan)\\z', FALSE)
      THEN CAST('NaN' AS DOUBLE)
      WHEN COALESCE(
        `amount` RLIKE '^[+-]?([0-9]+[.]?[0-9]*([eE][+-]?[0-9]+)?|[.][0-9]+([eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))\\z',
        FALSE
      )
      THEN TRY_CAST(`amount` AS DOUBLE)
    END AS `$shared.0`
  FROM `orders.carry`
) AS `input`;
