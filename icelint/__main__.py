from icelint._start import entry

entry()
