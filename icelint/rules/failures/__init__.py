"""The rules about statements that fail or cannot be checked: one analysis (`analysis.py`) and two
rules, ICE005 `runtime_failure` and ICE028 `unknown_schema`."""
