"""The values that flow between the stages of a check, plain and immutable: where text came from
(`source`), the typed changes a statement asks for (`changes`), what the rules report (`findings`) and
the edits that fix it (`fix`).
"""
