from taash.cli.main import run

run()
