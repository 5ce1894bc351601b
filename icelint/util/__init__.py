"""Small helpers with no knowledge of Iceberg: lazily computed attributes and safe file writing."""
