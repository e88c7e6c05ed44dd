//! `stackmask maskbench`: the MaskBench harness (`shared/maskbench/README.md`), and
//! `stackmask validate`.
//!
//! Per schema file: compile the schema (time to first mask: schema text to a matcher
//! ready for its first mask, classifier included, and in eager mode its eager build),
//! then for every test serialize `data` as Python's `json.dumps(data, ensure_ascii=False)`,
//! tokenize it without special tokens and teacher-force it: time each mask (the first
//! one included), check the true token is allowed, commit; at the end EOS must be
//! allowed. A schema passes when every valid instance is accepted and every invalid one
//! rejected; otherwise its status is `compile_error`, `validation_error` (a valid
//! instance rejected) or `invalidation_error` (an invalid one accepted). `validate`
//! mode skips tokens: it feeds the instance's bytes to the recognizer, which checks the
//! compiler's semantics alone.
//!
//! With `--peer llguidance`, llguidance runs first over the same files in the same process,
//! as `shared/peers/llg_maskbench.py` runs it (the schema as `{"grammars": [{"json_schema":
//! …}]}`, default options and limits, one matcher compiled per schema and cloned per test),
//! on the same token sequences; then both are printed side by side, with ratios.

use crate::crosscheck::{self, SchemaCheck};
use crate::forcing::{teacher_force, Outcome, Sequence, Stackmask};
use crate::peer::{self, Limits, Llguidance};
use crate::records::{self, Record};
use crate::summary::{self, Column, MemoryProbe, Metric, Summary};
use crate::{out, progress_bar, read};
use serde_json::Value;
use stackmask::classifier::StackClassifier;
use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions, SchemaGrammar};
use stackmask::matcher::Recognizer;
use stackmask::tokenizer::Tokenizer;
use stackmask::matcher::CompileConfig;
use stackmask::{CompiledGrammar, Error};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How masks are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The classifier builds its states on first use, inside mask calls.
    Lazy,
    /// The classifier is built before the first mask (counted in TTFM).
    Eager,
    /// No tokens: each instance's bytes go to the recognizer.
    Validate,
}

/// What `maskbench` was asked to do.
pub struct Args {
    pub paths: Vec<PathBuf>,
    pub tokenizer: Option<Tokenizer>,
    pub mode: Mode,
    /// How schemas compile.
    pub options: JsonSchemaOptions,
    pub verify: bool,
    pub every: usize,
    /// Schemas run at once.
    pub jobs: usize,
    pub compile: CompileConfig,
    pub out: Option<PathBuf>,
    pub peer: Option<PeerArgs>,
    /// Judge every instance with the reference validator too (`validate` mode only).
    pub cross_check: bool,
}

/// The peer's part of a `maskbench` run (`--peer llguidance`).
pub struct PeerArgs {
    /// llguidance's parser limits (`--peer-limits`).
    pub limits: Option<Limits>,
}

/// Rows of the side-by-side table: MaskBench's statuses.
const STATUS_METRICS: &[Metric] = &[
    Metric::count("schemas", |s| Some(s.records as f64)),
    Metric::count("pass", |s| Some(s.count("pass") as f64)),
    Metric::count("compile_error", |s| Some(s.count("compile_error") as f64)),
    Metric::count("validation_error", |s| Some(s.count("validation_error") as f64)),
    Metric::count("invalidation_error", |s| Some(s.count("invalidation_error") as f64)),
];

/// Runs the harness: exit 1 when stackmask accepted an invalid instance (or, with
/// `--cross-check`, one the reference validator rejects), 2 on usage errors.
pub fn run(args: Args) -> Result<ExitCode, Error> {
    let is_json = |p: &Path| p.extension().is_some_and(|e| e == "json");
    let files: Vec<PathBuf> = records::expand(&args.paths, is_json)?.into_iter().step_by(args.every.max(1)).collect();
    if files.is_empty() {
        eprintln!("error: no schema files given");
        return Ok(ExitCode::from(2));
    }
    if args.peer.is_some() && args.mode == Mode::Validate {
        eprintln!("error: --peer needs tokens: use --mode lazy or eager, with --tokenizer");
        return Ok(ExitCode::from(2));
    }
    if args.cross_check && args.mode != Mode::Validate {
        eprintln!("error: --cross-check judges instances without tokens: use --mode validate");
        return Ok(ExitCode::from(2));
    }
    if args.cross_check && !cfg!(feature = "jsonschema") {
        eprintln!("error: {}", crosscheck::UNAVAILABLE);
        return Ok(ExitCode::from(2));
    }
    if args.jobs > 1 && !(args.verify || args.mode == Mode::Validate) {
        eprintln!("error: --jobs times schemas against each other: use it with --verify or --mode validate");
        return Ok(ExitCode::from(2));
    }
    if args.jobs > 1 && args.peer.is_some() {
        eprintln!("error: --jobs runs stackmask alone: drop --peer");
        return Ok(ExitCode::from(2));
    }
    if args.tokenizer.is_none() && args.mode != Mode::Validate {
        eprintln!("error: --tokenizer is required unless --mode validate");
        return Ok(ExitCode::from(2));
    }
    // The peer runs first and stays loaded to the end: stackmask's run can then reuse only
    // the memory the peer's own run freed (see `summary::Memory`).
    let peer = match (&args.peer, &args.tokenizer) {
        (Some(peer_args), Some(tokenizer)) => {
            let llg = peer::load(tokenizer, peer_args.limits.clone())?;
            let Some(summary) = run_peer(&llg, tokenizer, &files, args.out.as_deref())? else {
                return Ok(ExitCode::from(1));
            };
            Some((llg, summary))
        }
        _ => None,
    };
    let probe = MemoryProbe::start();
    let progress = schema_progress(files.len());
    let Some(records) = records::run_each(&files, progress, args.jobs, |path| run_file(path, &args))? else {
        return Ok(ExitCode::from(1));
    };
    let summary = Summary::of(&records, probe.finish());
    out!("== {:?} ==", args.mode);
    print_schemas(&records, &summary, args.mode != Mode::Validate)?;
    if args.verify {
        out!("verify: every mask equal to the token-by-token reference mask");
    }
    if args.jobs > 1 {
        out!("NOTE: {} schemas ran at once (--jobs): the times above include each other's load", args.jobs);
    }
    let over_accepted = if args.cross_check { crosscheck::print_totals(&records)? } else { 0 };
    if let Some(path) = &args.out {
        records::write(path, &records)?;
    }
    if let Some((_, peer)) = &peer {
        print_comparison(args.mode, &summary, peer)?;
    }
    let invalidations = summary.count("invalidation_error");
    Ok(if invalidations > 0 || over_accepted > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The side-by-side table of stackmask's run (`mode`) and the peer's.
fn print_comparison(mode: Mode, summary: &Summary, peer: &Summary) -> Result<(), Error> {
    out!();
    out!("== side by side: stackmask and llguidance, same process, same schemas, instances and tokens (ratio: stackmask / llguidance) ==");
    let columns = [
        Column { name: format!("{mode:?}").to_lowercase(), summary },
        Column { name: "llguidance".into(), summary: peer },
    ];
    summary::print_side_by_side(&columns, &[STATUS_METRICS, summary::TTFM_METRICS, summary::MASK_METRICS, summary::MEMORY_METRICS])
}

fn schema_progress(len: usize) -> indicatif::ProgressBar {
    let progress = progress_bar(len as u64, true);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} schemas {elapsed} {msg}").expect("valid template"),
    );
    progress
}

/// One test instance: its data, its text as MaskBench serializes it, and its label.
struct Test {
    data: Value,
    text: String,
    valid: bool,
}

/// A MaskBench file: its schema, also as text (as a server receives it), and its tests.
struct SchemaFile {
    schema: Value,
    schema_text: String,
    tests: Vec<Test>,
}

impl Test {
    fn of(mut test: Value) -> Test {
        let data = test.get_mut("data").map(Value::take).unwrap_or_default();
        Test { text: python_json(&data), valid: test["valid"] == Value::Bool(true), data }
    }
}

impl SchemaFile {
    /// Reads a MaskBench file, or says why it is not one.
    fn load(path: &Path) -> Result<Result<SchemaFile, String>, Error> {
        let file: Value = match serde_json::from_slice(&read(path)?) {
            Ok(v) => v,
            Err(e) => return Ok(Err(format!("not a MaskBench file: {e}"))),
        };
        let Value::Object(mut file) = file else {
            return Ok(Err("not a MaskBench file: not an object".into()));
        };
        let Some(schema) = file.remove("schema") else {
            return Ok(Err("not a MaskBench file: no \"schema\"".into()));
        };
        let tests = match file.remove("tests") {
            Some(Value::Array(tests)) => tests.into_iter().map(Test::of).collect(),
            _ => Vec::new(),
        };
        let schema_text = serde_json::to_string(&schema).unwrap_or_default();
        Ok(Ok(SchemaFile { schema, schema_text, tests }))
    }
}

fn run_file(path: &Path, args: &Args) -> Result<Record, Error> {
    let mut record = Record::new(path);
    let file = match SchemaFile::load(path)? {
        Ok(file) => file,
        Err(reason) => return Ok(record.failed("error", reason)),
    };
    // Parsing the schema text counts in TTFM; writing it out of the file's parse did not.
    let started = Instant::now();
    let compiled = compile_json_schema(&file.schema_text, &args.options)
        .and_then(|SchemaGrammar { grammar, approximated }| {
            record.approximated = approximated;
            CompiledGrammar::with_config(&grammar, &args.compile).map(Arc::new)
        });
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => return Ok(record.failed("compile_error", e.to_string())),
    };
    let tokenizer = match (&args.tokenizer, args.mode) {
        (_, Mode::Validate) | (None, _) => return validate_tests(record, &compiled, &file, started, args.cross_check),
        (Some(tokenizer), _) => tokenizer,
    };
    let classifier = Arc::new(StackClassifier::new(compiled, tokenizer.vocab_arc()));
    if args.mode == Mode::Eager {
        if let Err(e) = classifier.build_eager() {
            // The classifier stays exact: what was not built is built on first use.
            eprintln!("{}: eager build stopped ({e}); the rest builds lazily", record.id);
        }
    }
    record.ttfm_us = Some(started.elapsed().as_secs_f64() * 1e6);
    let Some(&eos) = tokenizer.vocab().eos_tokens().first() else {
        return Ok(record.failed("error", "the tokenizer has no EOS token".into()));
    };
    let tests = match tokenize(&file.tests, tokenizer) {
        Ok(tests) => tests,
        Err(reason) => return Ok(record.failed("error", reason)),
    };
    force_tests(record, &tests, eos, || Stackmask::new(&classifier, args.verify))
}

/// `validate` mode: each test's bytes through the recognizer, no tokens; the compile
/// (from `started`) is the TTFM. With `cross_check`, the reference validator judges the
/// same instances.
fn validate_tests(
    mut record: Record,
    compiled: &Arc<CompiledGrammar>,
    file: &SchemaFile,
    started: Instant,
    cross_check: bool,
) -> Result<Record, Error> {
    record.ttfm_us = Some(started.elapsed().as_secs_f64() * 1e6);
    let mut verdicts = Vec::with_capacity(file.tests.len());
    for test in &file.tests {
        let mut recognizer = Recognizer::new(Arc::clone(compiled));
        let accepted = recognizer.feed(test.text.as_bytes()).is_ok() && recognizer.is_complete()?;
        judge(&mut record, accepted, test.valid);
        verdicts.push(accepted);
    }
    if cross_check {
        let instances: Vec<&Value> = file.tests.iter().map(|t| &t.data).collect();
        let labels: Vec<bool> = file.tests.iter().map(|t| t.valid).collect();
        record.cross_check = Some(SchemaCheck::of(&file.schema, &instances, &labels, &verdicts));
    }
    Ok(record)
}

/// Every test's tokens (stackmask's tokenizer, no special tokens) and label.
fn tokenize(tests: &[Test], tokenizer: &Tokenizer) -> Result<Vec<(Vec<u32>, bool)>, String> {
    tests.iter().map(|t| tokenizer.encode(&t.text).map(|tokens| (tokens, t.valid)).map_err(|e| e.to_string())).collect()
}

/// Teacher-forces every test through a `fresh` sequence and judges the schema.
fn force_tests<S: Sequence>(
    mut record: Record,
    tests: &[(Vec<u32>, bool)],
    eos: u32,
    mut fresh: impl FnMut() -> S,
) -> Result<Record, Error> {
    for (tokens, valid) in tests {
        let mut sequence = fresh();
        let outcome = teacher_force(&mut sequence, tokens, eos, &mut record.masks_us)?;
        record.built.extend(sequence.take_built());
        let accepted = match outcome {
            Outcome::Accepted => true,
            Outcome::Rejected { .. } => false,
            Outcome::Failed(reason) => return Ok(record.failed("error", reason)),
            Outcome::Differs(difference) => return Ok(record.failed("mask_differs", difference)),
        };
        judge(&mut record, accepted, *valid);
    }
    Ok(record)
}

/// Records a test's outcome; the first failure decides the status.
fn judge(record: &mut Record, accepted: bool, valid: bool) {
    if accepted != valid && record.status == "pass" {
        record.status = if valid { "validation_error" } else { "invalidation_error" };
    }
}

/// llguidance over every file, compiled as `shared/peers/llg_maskbench.py` compiles it;
/// `None` if it stopped early.
fn run_peer(llg: &Llguidance, tokenizer: &Tokenizer, files: &[PathBuf], out: Option<&Path>) -> Result<Option<Summary>, Error> {
    let probe = MemoryProbe::start();
    let (tests, retokenized) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let forced = records::run_each(files, schema_progress(files.len()), 1, |path| {
        let (record, counts) = peer_file(llg, tokenizer, path)?;
        tests.fetch_add(counts.0, Ordering::Relaxed);
        retokenized.fetch_add(counts.1, Ordering::Relaxed);
        Ok(record)
    })?;
    let (tests, retokenized) = (tests.into_inner(), retokenized.into_inner());
    let Some(records) = forced else {
        return Ok(None);
    };
    let summary = Summary::of(&records, probe.finish());
    out!("== llguidance ==");
    print_schemas(&records, &summary, true)?;
    out!("token sequences: {retokenized} of {tests} instances tokenize differently with llguidance's own tokenizer (both engines were given stackmask's)");
    if let Some(path) = out {
        records::write(&records::labelled(path, "llguidance"), &records)?;
    }
    out!();
    Ok(Some(summary))
}

/// One schema through llguidance: its record, and (tests forced, tests that llguidance's
/// own tokenizer tokenizes differently).
fn peer_file(llg: &Llguidance, tokenizer: &Tokenizer, path: &Path) -> Result<(Record, (usize, usize)), Error> {
    let mut record = Record::new(path);
    let file = match SchemaFile::load(path)? {
        Ok(file) => file,
        Err(reason) => return Ok((record.failed("error", reason), (0, 0))),
    };
    let grammar = peer::json_schema_grammar(&file.schema_text);
    let started = Instant::now();
    let compiled = llg.compile(&grammar);
    let ttfm_us = started.elapsed().as_secs_f64() * 1e6;
    let matcher = match compiled {
        Ok(matcher) => matcher,
        Err(e) => return Ok((record.failed("compile_error", peer::shorten(&e, 300)), (0, 0))),
    };
    record.ttfm_us = Some(ttfm_us);
    let tests = match tokenize(&file.tests, tokenizer) {
        Ok(tests) => tests,
        Err(reason) => return Ok((record.failed("error", reason), (0, 0))),
    };
    let retokenized = file.tests.iter().zip(&tests).filter(|(test, (tokens, _))| llg.tokenize(&test.text) != *tokens).count();
    let record = force_tests(record, &tests, llg.eos(), || matcher.clone())?;
    Ok((record, (tests.len(), retokenized)))
}

/// Status counts, then TTFM and (with `masks`) TBM percentiles, and memory.
fn print_schemas(records: &[Record], summary: &Summary, masks: bool) -> Result<(), Error> {
    let passed = summary.count("pass");
    out!(
        "schemas: {} — pass {passed} ({:.1}%); {}",
        records.len(),
        100.0 * passed as f64 / records.len().max(1) as f64,
        summary.status_list()
    );
    let approximated = records.iter().filter(|r| !r.approximated.is_empty()).count();
    if approximated > 0 {
        let passed_approx = records.iter().filter(|r| !r.approximated.is_empty() && r.status == "pass").count();
        out!("oneOf compiled as anyOf in {approximated} schemas ({passed_approx} of them pass)");
    }
    summary.print_ttfm()?;
    if masks {
        summary.print_masks("TBM us")?;
        summary::print_by_construction(records)?;
    }
    summary::print_memory(&summary.memory)
}

/// `stackmask validate SCHEMA INSTANCE`: exit 0 valid, 1 invalid (with the position),
/// 2 on an error.
pub fn validate(schema: &Path, instance: &Path, options: &JsonSchemaOptions) -> Result<ExitCode, Error> {
    let text = String::from_utf8(read(schema)?)
        .map_err(|e| Error::Schema { pointer: "#".into(), reason: format!("schema file is not UTF-8: {e}") })?;
    let compiled = compile_json_schema(&text, options)?;
    for pointer in &compiled.approximated {
        eprintln!("warning: oneOf at {pointer} compiled as anyOf");
    }
    let compiled = Arc::new(CompiledGrammar::new(&compiled.grammar)?);
    crate::report_recognition(compiled, &read(instance)?)
}

/// `data` as Python's `json.dumps(data, indent=None, ensure_ascii=False)` writes it.
pub fn python_json(data: &Value) -> String {
    let mut out = String::new();
    write_python_json(data, &mut out);
    out
}

fn write_python_json(data: &Value, out: &mut String) {
    match data {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push_str(&n.to_string()),
        Value::Number(n) => out.push_str(&python_float(n.as_f64().unwrap_or(f64::NAN))),
        Value::String(s) => write_python_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_json(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_string(key, out);
                out.push_str(": ");
                write_python_json(item, out);
            }
            out.push('}');
        }
    }
}

fn write_python_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Python's `repr` of a float: the shortest round-trip digits, in positional notation
/// for decimal exponents from -4 to 15 and in scientific notation (`1e-05`, `1e+16`)
/// otherwise.
fn python_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let scientific = format!("{:e}", x.abs());
    let (mantissa, exponent) = scientific.split_once('e').expect("{:e} writes an exponent");
    let exponent: i32 = exponent.parse().expect("{:e} writes an integer exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        let text = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        return format!("{sign}{text}");
    }
    let mantissa = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
    let exponent_sign = if exponent < 0 { "-" } else { "+" };
    format!("{sign}{mantissa}e{exponent_sign}{:02}", exponent.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_written_as_python_writes_them() {
        for (x, python) in [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (-2.5, "-2.5"),
            (123.456, "123.456"),
            (1.5e300, "1.5e+300"),
            (-0.0, "-0.0"),
        ] {
            assert_eq!(python_float(x), python, "{x}");
        }
    }

    #[test]
    fn values_are_written_as_json_dumps_writes_them() {
        let v: Value = serde_json::from_str(r#"{"b": [1, 2.0, "é\n\u0001"], "a": null}"#).unwrap();
        assert_eq!(python_json(&v), r#"{"b": [1, 2.0, "é\n\u0001"], "a": null}"#);
    }
}
