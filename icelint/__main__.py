from icelint.cli import entry

entry()
