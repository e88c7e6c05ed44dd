#!/usr/bin/env python3
"""llguidance (PyPI) teacher-forced on code corpora, one record per file in the format
`stackmask bench --out` writes ({"id", "status", "ttfm_us", "masks_us"}), for
`../shared/peers/summarize.py`. Same method as `../shared/bench/anchors/code_llg/`: a fresh
LLMatcher per file (TTFM = grammar compile + matcher), mask / check / consume per token,
then a final mask where EOS must be allowed.

usage: llg_code.py TOKENIZER_JSON[.gz] GRAMMAR.lark OUT_JSON FILE_OR_DIR... [--limits JSON]
"""
import gzip, json, os, sys, tempfile, time
import llguidance as llg
from llguidance.numpy import allocate_token_bitmask, fill_next_token_bitmask


def load_tokenizer(path):
    if path.endswith(".gz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".json", delete=False)
        tmp.write(gzip.open(path).read())
        tmp.close()
        path = tmp.name
    return llg.LLTokenizer(path)


def allowed(mask, t):
    return bool((int(mask[0, t // 32]) >> (t % 32)) & 1)


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            yield from sorted(os.path.join(p, f) for f in os.listdir(p))
        else:
            yield p


def run_file(tok, mask, grammar, limits, path):
    r = {"id": os.path.basename(path), "masks_us": [], "status": "pass"}
    text = open(path, encoding="utf-8").read()
    t0 = time.perf_counter()
    m = llg.LLMatcher(tok, json.dumps({"grammars": [{"lark_grammar": grammar}]}), limits=limits)
    if m.is_error():
        r["status"], r["error"] = "compile_error", m.get_error()[:300]
        return r
    r["ttfm_us"] = (time.perf_counter() - t0) * 1e6
    for step, t in enumerate(tok.tokenize_str(text) + [tok.eos_token]):
        t1 = time.perf_counter()
        fill_next_token_bitmask(m, mask, 0)
        r["masks_us"].append((time.perf_counter() - t1) * 1e6)
        if m.is_error() or not allowed(mask, t):
            r["status"], r["error"] = "validation_error", f"token {step}: {m.get_error() if m.is_error() else 'not allowed'}"
            return r
        if t != tok.eos_token:
            m.consume_token(t)
    return r


def main():
    args = sys.argv[1:]
    limits = None
    if "--limits" in args:
        i = args.index("--limits")
        limits = llg.LLParserLimits(**json.loads(args[i + 1]))
        del args[i:i + 2]
    tok_path, grammar_path, out_path, inputs = args[0], args[1], args[2], args[3:]
    tok = load_tokenizer(tok_path)
    mask = allocate_token_bitmask(1, tok.vocab_size)
    grammar = open(grammar_path, encoding="utf-8").read()
    results = [run_file(tok, mask, grammar, limits, f) for f in files_of(inputs)]
    json.dump(results, open(out_path, "w"))


if __name__ == "__main__":
    main()
