"""Answer, for each TOML document it is given, whether tomllib reads it.

Kokua reads config.toml with tomllib.load, which decodes the bytes as
UTF-8 and parses the text. This helper does the same to each document and
answers on one line per document, in order:

    accept <what it reads, as JSON>
    refuse <the exception's type>: <its message, on one line>

What it reads is written with the type of each scalar, as the Go test
writes its own tree: {"string": s}, {"integer": "digits"}, {"float":
"the 64 bits in hex"} (any NaN as "nan"), {"bool": b}, {"datetime": null}
(the tree keeps no date-time's value); tables and arrays as JSON's own.

Each input line is one document in base64. The first output line is
"ready", once tomllib has been imported.
"""

import base64
import datetime
import json
import math
import struct
import sys
import tomllib


def typed(v):
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"integer": str(v)}
    if isinstance(v, float):
        return {"float": "nan" if math.isnan(v) else struct.pack(">d", v).hex()}
    if isinstance(v, str):
        return {"string": v}
    if isinstance(v, (datetime.date, datetime.time, datetime.datetime)):
        return {"datetime": None}
    raise TypeError(type(v).__name__)


out = sys.stdout
out.write("ready\n")
out.flush()
for line in sys.stdin:
    data = base64.b64decode(line.strip())
    try:
        value = tomllib.loads(data.decode("utf-8"))
        answer = "accept " + json.dumps(typed(value), sort_keys=True, ensure_ascii=True)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as e:
        answer = "refuse %s: %s" % (type(e).__name__, " ".join(str(e).split()))
    out.write(answer + "\n")
    out.flush()
