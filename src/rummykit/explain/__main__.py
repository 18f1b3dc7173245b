"""``python -m rummykit.explain FOLDER`` writes the rules pages of every preset into FOLDER."""

from rummykit.explain import main

raise SystemExit(main())
