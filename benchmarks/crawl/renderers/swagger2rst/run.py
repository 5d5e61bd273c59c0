"""swagger2rst's own command (`swg2rst`, its `main`), run on Python 3.10+: the package imports `Mapping` and
`Iterable` from `collections`, where Python 3.10 no longer has them (they live in `collections.abc`), so they are
put back first. Nothing else is changed. Usage: run.py SPEC -o OUT.rst (the command's own arguments)."""

import collections
import collections.abc
import sys

collections.Mapping = collections.abc.Mapping
collections.Iterable = collections.abc.Iterable

from swg2rst.swagger2rst import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
