"""The public kit rules are written with: what a rule is and what it sees (`base`), where a finding
points (`positions`), the data at stake (`impact`), help recipes as SQL (`help`, `help_*`), fixes built
from them (`fixes`), look-ups over a run's outcomes (`outcomes`), and backfill detection (`backfill`).
See CONTRIBUTING.md, "Adding a rule".
"""
