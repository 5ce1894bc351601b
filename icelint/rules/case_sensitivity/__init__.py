"""The rules about names that differ only in case: one analysis (`analysis.py`) and two rules,
ICE008 `case_sensitive_session` and ICE029 `case_only_twin`."""
