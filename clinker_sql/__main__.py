from clinker_sql.cli import main

main()
