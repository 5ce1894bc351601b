"""Small helpers with no knowledge of Iceberg: lazily computed attributes, safe file writing and a quicker
`__init__` for frozen dataclasses."""
