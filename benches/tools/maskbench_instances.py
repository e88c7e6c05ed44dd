#!/usr/bin/env python3
"""Write the valid instances of MaskBench files as text files, serialized as the MaskBench
harness does (json.dumps, indent=None, ensure_ascii=False), for `stackmask bench
grammars/json.lark OUT_DIR`. Usage: maskbench_instances.py OUT_DIR [--every N] FILE..."""
import json, os, sys

args = sys.argv[1:]
out, every = args.pop(0), 1
if args[:1] == ["--every"]:
    every = int(args[1])
    args = args[2:]
os.makedirs(out, exist_ok=True)
written = 0
for i, path in enumerate(sorted(args)):
    if i % every:
        continue
    with open(path, encoding="utf-8") as f:
        tests = json.load(f).get("tests", [])
    for k, test in enumerate(t for t in tests if t.get("valid")):
        name = f"{os.path.splitext(os.path.basename(path))[0]}.{k}.json"
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(json.dumps(test["data"], indent=None, ensure_ascii=False))
        written += 1
print(f"{written} valid instances written to {out}")
