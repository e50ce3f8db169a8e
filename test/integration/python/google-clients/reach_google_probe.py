"""Run by name only: a client that reaches for Google, which conftest.py's guard must fail."""

import requests


def test_reaches_for_google():
    requests.get("https://oauth2.googleapis.com/tokeninfo", timeout=10)
