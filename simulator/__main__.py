"""`python -m simulator ...`: see simulator/cli.py."""
import sys

from simulator.cli import main

sys.exit(main())
