"""Answer, for each TOML document it is given, whether tomllib reads it.

Kokua reads config.toml with tomllib.load, which decodes the bytes as
UTF-8 and parses the text. This helper does the same to each document and
answers on one line per document, in order:

    accept
    refuse <the exception's type>: <its message, on one line>

Each input line is one document in base64. The first output line is
"ready", once tomllib has been imported.
"""

import base64
import sys
import tomllib

out = sys.stdout
out.write("ready\n")
out.flush()
for line in sys.stdin:
    data = base64.b64decode(line.strip())
    try:
        tomllib.loads(data.decode("utf-8"))
        answer = "accept"
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as e:
        answer = "refuse %s: %s" % (type(e).__name__, " ".join(str(e).split()))
    out.write(answer + "\n")
    out.flush()
