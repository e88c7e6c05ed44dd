//! The `stackmask` command line: exit codes and messages.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stackmask")).args(args).output().expect("runs")
}

fn temp(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stackmask-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const JSON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/json.lark");

#[test]
fn check_accepts_and_rejects_with_position() {
    let good = temp("good.json", br#"{"a": [1, 2.5e3, "x"]}"#);
    let o = run(&["check", JSON, good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("accepted"));

    let bad = temp("bad.json", b"{\"a\": [1,\n 2,, 3]}");
    let o = run(&["check", JSON, bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("byte 13 (line 2, column 4)"), "{}", stdout(&o));

    let prefix = temp("prefix.json", br#"{"a": "#);
    let o = run(&["check", JSON, prefix.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("end of input"));

    let invalid_utf8 = temp("invalid.json", b"\"\xff\"");
    assert_eq!(run(&["check", JSON, invalid_utf8.to_str().unwrap()]).status.code(), Some(1));
}

#[test]
fn grammar_errors_and_usage_exit_2() {
    let broken = temp("broken.lark", b"start: a\n a: \"x\" |\n  b: (\n");
    let o = run(&["check", broken.to_str().unwrap(), JSON]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line"), "{err}");
    assert_eq!(run(&["check", "/nonexistent.lark", JSON]).status.code(), Some(2));
    assert_eq!(run(&["check"]).status.code(), Some(2));
    assert_eq!(run(&["trace", JSON]).status.code(), Some(2), "GRAMMAR without TEXT_FILE");
}

#[test]
fn trace_runs_on_embedded_defaults_and_verifies() {
    let o = run(&["trace", "--summary", "--verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("p99.9"), "{out}");
    assert!(out.contains("verify: every mask equal"), "{out}");
}

#[test]
fn trace_prints_one_line_per_token_and_rejects_bad_text() {
    let text = temp("t.json", br#"[1, true]"#);
    let o = run(&["trace", JSON, text.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let lines = stdout(&o).lines().filter(|l| l.contains(" true ")).count();
    assert!(lines >= 5, "{}", stdout(&o));
    let bad = temp("b.json", br#"[1, tru]"#);
    let o = run(&["trace", JSON, bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not allowed"));
}

#[test]
fn bench_reports_percentiles_and_writes_records() {
    let a = temp("bench_a.json", br#"{"a": [1, 2.5e3, "x"], "b": {"c": null}}"#);
    let b = temp("bench_b.json", br#"[1, tru]"#);
    let out = std::env::temp_dir().join(format!("stackmask-bench-{}.json", std::process::id()));
    let o = run(&["bench", JSON, a.to_str().unwrap(), b.to_str().unwrap(), "--verify", "--out", out.to_str().unwrap()]);
    let printed = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "one text is not JSON: {printed}");
    for needle in ["== Lazy ==", "== Eager ==", "p99.9", "1/2 pass", "validation_error", "every mask equal", "VmHWM"] {
        assert!(printed.contains(needle), "{needle} missing: {printed}");
    }
    for mode in ["lazy", "eager"] {
        let path = out.with_file_name(format!("stackmask-bench-{}.{mode}.json", std::process::id()));
        let records: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let records = records.as_array().unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0]["status"], "pass");
        assert!(records[0]["masks_us"].as_array().unwrap().len() > 10, "one time per token and EOS");
        assert!(records[0]["ttfm_us"].as_f64().unwrap() > 0.0);
        assert_eq!(records[1]["status"], "validation_error");
    }
}

/// The count in `masks that built automata or edges: N of M`, and M.
fn built_masks(printed: &str) -> (usize, usize) {
    let line = printed.lines().find(|l| l.starts_with("masks that built automata or edges: ")).expect("the split is printed");
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[6].parse().unwrap(), words[8].parse().unwrap())
}

/// The number of masks on the percentile line labelled `label`, if it is printed.
fn group_count(printed: &str, label: &str) -> Option<usize> {
    let rest = printed.lines().find_map(|l| l.strip_prefix(label)?.strip_prefix(" ("))?;
    Some(rest.split(')').next()?.parse().unwrap())
}

#[test]
fn bench_splits_masks_by_construction() {
    let a = temp("split_a.json", br#"{"a": [1, 2.5e3, "x"], "b": {"c": [[null]]}}"#);
    let o = run(&["bench", JSON, a.to_str().unwrap(), "--mode", "lazy"]);
    let printed = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{printed}");
    let (built, masks) = built_masks(&printed);
    assert!(built > 0 && built < masks, "a lazy classifier builds in its first masks, not in all: {printed}");
    assert!(printed.contains("mask us, building") && printed.contains("mask us, walk only"), "{printed}");
    // The first mask builds the start state's automaton, later ones in a lexer state
    // already used only the edges of stacks not read before; the two groups are the
    // masks that built.
    let automata = group_count(&printed, "    of which an automaton (a row's first use)").expect("some masks built an automaton");
    let edges = group_count(&printed, "    of which edges only").expect("some masks built edges only");
    assert!(automata > 0 && edges > 0, "{printed}");
    assert_eq!(automata + edges, built, "{printed}");
    // Warmed on the measured text itself, the classifier holds every edge it needs.
    let o = run(&["bench", JSON, a.to_str().unwrap(), "--mode", "eager", "--warm", a.to_str().unwrap()]);
    let printed = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{printed}");
    assert_eq!(built_masks(&printed), (0, masks), "{printed}");
    assert!(!printed.contains("mask us, building"), "{printed}");
    assert_eq!(group_count(&printed, "    of which an automaton (a row's first use)"), None, "{printed}");
}

#[test]
fn validate_checks_an_instance_against_a_schema() {
    let schema = temp("schema.json", br#"{"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}, "required": ["n"]}"#);
    let good = temp("good-instance.json", br#"{"n": 7}"#);
    let o = run(&["validate", schema.to_str().unwrap(), good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let bad = temp("bad-instance.json", br#"{"n": 10}"#);
    let o = run(&["validate", schema.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("byte 7"), "{}", stdout(&o));
    let unsupported = temp("unsupported.json", br#"{"type": "array", "items": {"type": "string"}, "uniqueItems": true}"#);
    let o = run(&["validate", unsupported.to_str().unwrap(), good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("`uniqueItems` is not supported"));
}

#[test]
fn property_order_is_chosen_on_the_command_line() {
    let schema = temp("order-schema.json", br#"{"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}"#);
    let swapped = temp("order-instance.json", br#"{"b": 1, "a": 2}"#);
    let verdict = |flags: &[&str]| {
        let o = run(&[&["validate", schema.to_str().unwrap(), swapped.to_str().unwrap()][..], flags].concat());
        o.status.code()
    };
    assert_eq!(verdict(&[]), Some(0), "any order by default");
    assert_eq!(verdict(&["--property-order", "declared"]), Some(1));
    assert_eq!(verdict(&["--max-any-order", "1"]), Some(1), "two properties are past the limit");
}

#[test]
fn maskbench_validate_mode_counts_statuses_and_writes_records() {
    let file = temp(
        "mb.json",
        br#"{"schema": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "tests": [{"data": ["a", "b"], "valid": true}, {"data": ["a", "b", "c"], "valid": false}]}"#,
    );
    let unsupported = temp("mb-unsupported.json", br#"{"schema": {"type": "array", "uniqueItems": true}, "tests": []}"#);
    let out = temp("records.json", b"");
    let o = run(&["maskbench", "--mode", "validate", "--out", out.to_str().unwrap(), file.to_str().unwrap(), unsupported.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("pass 1 (50.0%)"), "{}", stdout(&o));
    let records: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(records[0]["status"], "pass");
    assert_eq!(records[1]["status"], "compile_error");
    let o = run(&["maskbench", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "a tokenizer is required outside validate mode");
}

#[test]
fn maskbench_jobs_keep_the_files_order_and_need_untimed_runs() {
    let schemas: Vec<_> = (0..6)
        .map(|i| {
            let max_items = if i % 2 == 0 { "2" } else { r#"{"bad": true}"# };
            let text = format!(
                r#"{{"schema": {{"type": "array", "items": {{"type": "integer"}}, "maxItems": {max_items}}},
                    "tests": [{{"data": [1, 2], "valid": true}}]}}"#
            );
            temp(&format!("mb-jobs-{i}.json"), text.as_bytes())
        })
        .collect();
    let paths: Vec<&str> = schemas.iter().map(|p| p.to_str().unwrap()).collect();
    let out = temp("records-jobs.json", b"");
    let args = [&["maskbench", "--mode", "validate", "--jobs", "3", "--out", out.to_str().unwrap()], paths.as_slice()].concat();
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("3 schemas ran at once"), "{}", stdout(&o));
    let records: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let statuses: Vec<&str> = (0..6).map(|i| records[i]["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["pass", "compile_error", "pass", "compile_error", "pass", "compile_error"]);
    let o = run(&[&["maskbench", "--jobs", "2"], paths.as_slice()].concat());
    assert_eq!(o.status.code(), Some(2), "timed runs refuse --jobs");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--jobs"), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
#[cfg(not(feature = "llguidance"))]
fn peer_llguidance_needs_the_feature() {
    let a = temp("peer_a.json", b"[1]");
    let o = run(&["bench", JSON, a.to_str().unwrap(), "--peer", "llguidance"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--features llguidance"), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn peer_options_need_a_known_peer() {
    let a = temp("peer_b.json", b"[1]");
    let o = run(&["bench", JSON, a.to_str().unwrap(), "--peer", "xgrammar"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown peer"));
    let o = run(&["bench", JSON, a.to_str().unwrap(), "--peer-grammar", JSON]);
    assert_eq!(o.status.code(), Some(2), "--peer-grammar without --peer");
}

/// The embedded Qwen3 tokenizer, as a file for the commands that need a path.
#[cfg(feature = "llguidance")]
const QWEN3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/qwen3.tokenizer.json.gz");

#[test]
#[cfg(feature = "llguidance")]
fn bench_runs_llguidance_side_by_side() {
    let a = temp("peer_bench_a.json", br#"{"a": [1, 2.5e3, "x"], "b": {"c": null}}"#);
    let b = temp("peer_bench_b.json", br#"[1, tru]"#);
    let out = std::env::temp_dir().join(format!("stackmask-peer-bench-{}.json", std::process::id()));
    let args = ["bench", JSON, a.to_str().unwrap(), b.to_str().unwrap(), "--mode", "lazy", "-t", QWEN3];
    let o = run(&[&args[..], &["--peer", "llguidance", "--out", out.to_str().unwrap()]].concat());
    let printed = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "one text is not JSON: {printed}");
    for needle in ["== llguidance ==", "== side by side", "lazy/llg", "mask p99.9 us", "RSS growth MiB"] {
        assert!(printed.contains(needle), "{needle} missing: {printed}");
    }
    let path = out.with_file_name(format!("stackmask-peer-bench-{}.llguidance.json", std::process::id()));
    let records: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(records[0]["status"], "pass");
    assert!(records[0]["compile_us"].as_f64().unwrap() > 0.0);
    assert!(records[0]["masks_us"].as_array().unwrap().len() > 10, "one time per token and EOS");
    assert_eq!(records[1]["status"], "validation_error");
}

#[test]
#[cfg(feature = "llguidance")]
fn maskbench_runs_llguidance_side_by_side() {
    let file = temp(
        "peer_mb.json",
        br#"{"schema": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "tests": [{"data": ["a", "b"], "valid": true}, {"data": ["a", "b", "c"], "valid": false}]}"#,
    );
    let bad = temp("peer_mb_bad.json", br#"{"schema": {"type": "nonsense"}, "tests": []}"#);
    let out = temp("peer_records.json", b"");
    let o = run(&["maskbench", "-t", QWEN3, "--peer", "llguidance", "--out", out.to_str().unwrap(), file.to_str().unwrap(), bad.to_str().unwrap()]);
    let printed = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{printed}");
    assert!(printed.contains("invalidation_error"), "{printed}");
    let path = out.with_file_name("peer_records.llguidance.json");
    let records: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(records[0]["status"], "pass");
    assert!(records[0]["ttfm_us"].as_f64().unwrap() > 0.0);
    assert_eq!(records[1]["status"], "compile_error");
    assert!(records[1].get("ttfm_us").is_none(), "no TTFM without a compile");
    let o = run(&["maskbench", "--mode", "validate", "--peer", "llguidance", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "the peer needs tokens");
}
