"""`python -m hermes_desktop` is the same as the `hermes-desktop` command."""

import sys

from hermes_desktop.app import main

sys.exit(main())
