"""icelint's version: a constant (reading the installed distribution's metadata would cost every start-up)."""

__version__ = "0.1.0"
