"""How the table model stores a long history cheaply: shared immutable sequences (`chain`), older schema
versions kept as differences (`versions`), and very large metadata.json files read lazily (`fastload`).
The model's values (`model.schema`, `model.table`) hide these behind their plain interfaces.
"""
