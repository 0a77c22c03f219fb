import sys

from display.cli import main

sys.exit(main())
