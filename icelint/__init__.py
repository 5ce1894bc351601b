"""icelint: a linter for Apache Iceberg schema migrations written in Spark SQL."""

import sys as _sys
import types as _types

__version__ = "0.1.0"


# `icelint.lint(sql_or_paths, state=...)` is the Python API (icelint.api.lint). `icelint.lint` is also
# the lint-engine module, and importing a submodule sets it as the package's attribute, so the module
# itself is made callable: `icelint.lint(...)` and `icelint.lint.lint_run` both work, whatever was
# imported first. Nothing heavy is imported until it is used.
class _CallableLintModule(_types.ModuleType):
    def __call__(self, sql_or_paths, state=None, **kwargs):
        """Lint Spark SQL migrations against the tables' state (see `icelint.api.lint`)."""
        from icelint.api import lint

        return lint(sql_or_paths, state=state, **kwargs)


class _Package(_types.ModuleType):
    def __setattr__(self, name, value):
        if name == "lint" and type(value) is _types.ModuleType:
            value.__class__ = _CallableLintModule
        super().__setattr__(name, value)


def __getattr__(name):
    if name == "lint":
        import icelint.lint  # noqa: F401 - the import sets (and makes callable) the attribute

        return _sys.modules[__name__].__dict__["lint"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_sys.modules[__name__].__class__ = _Package
