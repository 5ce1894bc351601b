from icelint.cli import main

raise SystemExit(main())
