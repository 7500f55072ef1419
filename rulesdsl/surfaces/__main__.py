import sys

from rulesdsl.surfaces.main import main

sys.exit(main())
