from histkit.cli import main

raise SystemExit(main())
