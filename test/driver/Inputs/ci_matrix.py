"""Runs the GitHub Actions matrix of docs/usage.md locally: the `run` steps
of every shard of the `lint` job (but the CMake configure: the test brings
its own compile database), then those of the `merge` job, in the current
directory with bash. Fails when a step fails or the workflow is not what
the docs describe (a matrix over `shard`, a merge job that needs lint)."""
import re
import subprocess
import sys

import yaml

doc = yaml.safe_load(open(sys.argv[1]))
jobs = doc["jobs"]
lint, merge = jobs["lint"], jobs["merge"]
assert merge["needs"] == "lint", "the merge job must wait for the shards"
shards = lint["strategy"]["matrix"]["shard"]


def run(step, shard=None):
    cmd = step["run"].strip()
    if shard is not None:
        cmd = cmd.replace("${{ matrix.shard }}", str(shard))
    assert "${{" not in cmd, "unexpanded expression in %r" % cmd
    print("$ " + cmd, flush=True)
    subprocess.run(["bash", "-e", "-c", cmd], check=True)


for shard in shards:
    for step in lint["steps"]:
        if "run" in step and not step["run"].startswith("cmake "):
            run(step, shard)
for step in merge["steps"]:
    if "run" in step:
        run(step)
print("shards: %d" % len(shards))
