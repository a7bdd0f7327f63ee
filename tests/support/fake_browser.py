"""A stand-in for the user's browser in CLI tests, named by the `BROWSER` environment variable:

    BROWSER="python -m tests.support.fake_browser %s"

It GETs the consent page and follows its redirect to the app's loopback listener: real HTTP, no person.
"""

from __future__ import annotations

import sys

from tests.support.oauth_server import follow_consent

if __name__ == "__main__":
    follow_consent(sys.argv[1])
