"""Browser tests against a served build (see conftest.py)."""
