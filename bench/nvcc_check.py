#!/usr/bin/env python3
"""Compile every entry of a compile database with its own nvcc command
(-o /dev/null), in parallel; write {file: [rc, first error line, seconds]}."""
import concurrent.futures as cf, json, os, subprocess, sys, time
db = json.load(open(sys.argv[1])); out = sys.argv[2]
jobs = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()
files = set(sys.argv[4].split(',')) if len(sys.argv) > 4 and sys.argv[4] else None
def one(e):
    if files is not None and e['file'] not in files: return None
    args = list(e['arguments'])
    args[0] = '/usr/local/cuda/bin/nvcc'
    args += ['-o', '/dev/null']
    t = time.time()
    try:
        r = subprocess.run(args, cwd=e['directory'], capture_output=True, text=True, timeout=400)
        rc, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        rc, err = 124, 'timeout'
    first = next((l for l in err.splitlines() if 'error' in l), err.strip().splitlines()[0] if err.strip() else '')
    return e['file'], [rc, first[:300], round(time.time() - t, 1)]
res = {}
with cf.ThreadPoolExecutor(jobs) as ex:
    for r in ex.map(one, db):
        if r: res[r[0]] = r[1]
json.dump(res, open(out, 'w'), indent=1)
ok = sum(1 for v in res.values() if v[0] == 0)
print(f'{ok} of {len(res)} compile')
