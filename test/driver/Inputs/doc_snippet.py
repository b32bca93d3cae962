"""Prints the fenced code block that follows `<!-- test: NAME -->` in a
Markdown file, so that tests run the snippets the docs show."""
import re
import sys

name, path = sys.argv[1], sys.argv[2]
text = open(path).read()
m = re.search(r"<!-- test: %s -->\s*```[a-z]*\n(.*?)```" % re.escape(name), text, re.S)
if not m:
    sys.exit("no snippet named %r in %s" % (name, path))
sys.stdout.write(m.group(1))
