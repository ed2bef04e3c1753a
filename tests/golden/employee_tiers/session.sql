-- session settings every statement relies on
SET spark.sql.ansi.enabled=true;
SET spark.sql.caseSensitive=true;
SET spark.sql.session.timeZone=UTC;
SET spark.sql.csv.parser.columnPruning.enabled=false;
SET spark.sql.mapKeyDedupPolicy=LAST_WIN;
SET spark.sql.legacy.timeParserPolicy=CORRECTED;
SET spark.sql.variable.substitute=false;
SET spark.sql.legacy.storeAnalyzedPlanForView=true;
SET spark.sql.adaptive.optimizer.excludedRules=org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation;
