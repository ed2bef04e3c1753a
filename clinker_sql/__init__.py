"""clinker-sql: compile Clinker pipelines to Spark SQL and run them."""

__version__ = "0.1.0"
