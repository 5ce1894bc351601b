"""The fixtures of tests/ci/conftest.py that the plan tests use: `repo`, a project with a history."""

from tests.ci.conftest import repo  # noqa: F401 - a fixture, found by pytest in this namespace
