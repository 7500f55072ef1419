import sys

from rulesdsl.surfaces.cli import main

sys.exit(main())
