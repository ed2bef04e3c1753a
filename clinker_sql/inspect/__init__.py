"""For the reviewer: explain, lineage, validate, compile --check and the docs page.

Everything here works from a compiled pipeline (or the pipeline model) and never
imports pyspark."""
