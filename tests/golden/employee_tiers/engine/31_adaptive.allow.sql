-- adaptive.allow: run before a statement whose plan observes nothing: Spark may then drop a branch that ran empty; the session's setting excludes that rule again after it
RESET spark.sql.adaptive.optimizer.excludedRules;
