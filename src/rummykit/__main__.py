"""The ``rummykit`` command (also ``python -m rummykit``).

The command line lives in :mod:`rummykit.cli` and needs the ``cli`` extra (typer, rich). Without it,
the command says which extra to install, in one line with exit status 2, instead of a traceback.
"""

from __future__ import annotations

import sys

CLI_PACKAGES = frozenset({"typer", "rich", "click"})
EXIT_BAD_INPUT = 2


def main() -> None:
    """Run the command line, or name the extra to install when it is missing."""
    try:
        from rummykit.cli import main as run
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in CLI_PACKAGES:
            raise
        sys.stderr.write(
            f"error: the rummykit command needs the cli extra ({missing} is not installed): "
            "pip install 'rummykit[cli]'\n"
        )
        raise SystemExit(EXIT_BAD_INPUT) from None
    run()


if __name__ == "__main__":
    main()
