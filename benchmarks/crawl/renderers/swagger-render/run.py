"""swagger-render's own command (`swagger-render`, its `main`) with the footer's build time fixed: the page stamps
`datetime.utcnow()` under the version, so no re-render would be the same; here it reads 1970-01-01 00:00:00 (as
SOURCE_DATE_EPOCH=0 would). Nothing else is changed. Usage: run.py SPEC -o OUT.html (the command's own arguments)."""

import sys
from datetime import datetime

import swagger_render.__main__ as command


class _BuildTime(datetime):
    @classmethod
    def utcnow(cls) -> datetime:  # the one call the command makes
        return datetime(1970, 1, 1)


command.datetime = _BuildTime

if __name__ == "__main__":
    sys.exit(command.main())
