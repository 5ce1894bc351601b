"""Acting on findings: applying fixes (`--fix`, `--unsafe-fixes`, `--diff`, the editor's code actions) and
writing suppression comments (`--add-suppressions`).
"""
