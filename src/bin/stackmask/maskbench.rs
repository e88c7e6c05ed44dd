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

use crate::records::{self, Record};
use crate::{allows, difference_from_reference, out, percentile, progress_bar, read, sorted};
use serde_json::Value;
use stackmask::classifier::StackClassifier;
use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions, OneOf, SchemaGrammar};
use stackmask::matcher::Recognizer;
use stackmask::tokenizer::Tokenizer;
use stackmask::matcher::CompileConfig;
use stackmask::{CompiledGrammar, Error, Matcher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
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
    pub one_of: OneOf,
    pub verify: bool,
    pub every: usize,
    pub compile: CompileConfig,
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, Error> {
    let is_json = |p: &Path| p.extension().is_some_and(|e| e == "json");
    let files: Vec<PathBuf> = records::expand(&args.paths, is_json)?.into_iter().step_by(args.every.max(1)).collect();
    if files.is_empty() {
        eprintln!("error: no schema files given");
        return Ok(ExitCode::from(2));
    }
    if args.mode != Mode::Validate && args.tokenizer.is_none() {
        eprintln!("error: --tokenizer is required unless --mode validate");
        return Ok(ExitCode::from(2));
    }
    let options = JsonSchemaOptions { one_of: args.one_of, ..JsonSchemaOptions::default() };
    let progress = progress_bar(files.len() as u64, true);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} schemas {elapsed} {msg}").expect("valid template"),
    );
    let Some(records) = records::run_each(&files, progress, |path| run_file(path, &args, &options))? else {
        return Ok(ExitCode::from(1));
    };
    report(&records, args.mode, args.verify)?;
    if let Some(path) = &args.out {
        records::write(path, &records)?;
    }
    let invalidations = records.iter().filter(|r| r.status == "invalidation_error").count();
    Ok(if invalidations > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// One test instance: its text as MaskBench serializes it, and its label.
struct Test {
    text: String,
    valid: bool,
}

fn run_file(path: &Path, args: &Args, options: &JsonSchemaOptions) -> Result<Record, Error> {
    let mut record = Record::new(path);
    let file: Value = match serde_json::from_slice(&read(path)?) {
        Ok(v) => v,
        Err(e) => return Ok(record.failed("error", format!("not a MaskBench file: {e}"))),
    };
    let Some(schema) = file.get("schema") else {
        return Ok(record.failed("error", "not a MaskBench file: no \"schema\"".into()));
    };
    let tests: Vec<Test> = file
        .get("tests")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| Test { text: python_json(&t["data"]), valid: t["valid"] == Value::Bool(true) })
        .collect();
    // The schema as text, as a server receives it: parsing it counts in TTFM, writing it
    // back out of the file's parse does not.
    let schema_text = serde_json::to_string(schema).unwrap_or_default();
    let started = Instant::now();
    let compiled = compile_json_schema(&schema_text, options)
        .and_then(|SchemaGrammar { grammar, approximated }| {
            record.approximated = approximated;
            CompiledGrammar::with_config(&grammar, &args.compile).map(Arc::new)
        });
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => return Ok(record.failed("compile_error", e.to_string())),
    };
    if args.mode == Mode::Validate {
        record.ttfm_us = started.elapsed().as_secs_f64() * 1e6;
        for test in &tests {
            let mut r = Recognizer::new(Arc::clone(&compiled));
            let accepted = r.feed(test.text.as_bytes()).is_ok() && r.is_complete()?;
            judge(&mut record, accepted, test.valid);
        }
        return Ok(record);
    }
    let tokenizer = args.tokenizer.as_ref().expect("checked by run");
    let classifier = Arc::new(StackClassifier::new(compiled, tokenizer.vocab_arc()));
    if args.mode == Mode::Eager {
        if let Err(e) = classifier.build_eager() {
            // The classifier stays exact: what was not built is built on first use.
            eprintln!("{}: eager build stopped ({e}); the rest builds lazily", record.id);
        }
    }
    record.ttfm_us = started.elapsed().as_secs_f64() * 1e6;
    for test in &tests {
        let accepted = match teacher_force(&classifier, tokenizer, &test.text, args.verify, &mut record.masks_us) {
            Ok(accepted) => accepted,
            Err(Forced::Differs(difference)) => return Ok(record.failed("mask_differs", difference)),
            Err(Forced::Error(e)) => return Ok(record.failed("error", e.to_string())),
        };
        judge(&mut record, accepted, test.valid);
    }
    Ok(record)
}

enum Forced {
    Differs(String),
    Error(Error),
}

impl From<Error> for Forced {
    fn from(e: Error) -> Forced {
        Forced::Error(e)
    }
}

/// Whether the masks let `text` through, EOS included; mask times go to `masks_us`.
fn teacher_force(
    classifier: &Arc<StackClassifier>,
    tokenizer: &Tokenizer,
    text: &str,
    verify: bool,
    masks_us: &mut Vec<f64>,
) -> Result<bool, Forced> {
    let tokens = tokenizer.encode(text)?;
    let eos = *tokenizer.vocab().eos_tokens().first().ok_or_else(|| Error::Tokenizer("no EOS token".into()))?;
    let mut matcher = Matcher::with_classifier(Arc::clone(classifier));
    let mut mask = vec![0u32; matcher.mask_words()];
    for (step, token) in tokens.iter().copied().chain(std::iter::once(eos)).enumerate() {
        let t0 = Instant::now();
        matcher.compute_mask(&mut mask)?;
        masks_us.push(t0.elapsed().as_secs_f64() * 1e6);
        if verify {
            if let Some(difference) = difference_from_reference(&matcher, &mask, step)? {
                return Err(Forced::Differs(difference));
            }
        }
        if !allows(&mask, token) {
            return Ok(false);
        }
        if token != eos {
            matcher.commit(token)?;
        }
    }
    Ok(true)
}

/// Records a test's outcome; the first failure decides the status.
fn judge(record: &mut Record, accepted: bool, valid: bool) {
    if accepted != valid && record.status == "pass" {
        record.status = if valid { "validation_error" } else { "invalidation_error" };
    }
}

fn report(records: &[Record], mode: Mode, verified: bool) -> Result<(), Error> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for r in records {
        match counts.iter_mut().find(|(s, _)| *s == r.status) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.status, 1)),
        }
    }
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let passed = records.iter().filter(|r| r.status == "pass").count();
    let approximated = records.iter().filter(|r| !r.approximated.is_empty()).count();
    out!("== {mode:?} ==");
    out!(
        "schemas: {} — pass {passed} ({:.1}%); {}",
        records.len(),
        100.0 * passed as f64 / records.len().max(1) as f64,
        counts.iter().map(|(s, n)| format!("{s} {n}")).collect::<Vec<_>>().join(", ")
    );
    if approximated > 0 {
        let passed_approx = records.iter().filter(|r| !r.approximated.is_empty() && r.status == "pass").count();
        out!("oneOf compiled as anyOf in {approximated} schemas ({passed_approx} of them pass)");
    }
    let ttfm = sorted(records.iter().filter(|r| r.status != "compile_error").map(|r| r.ttfm_us));
    let masks = sorted(records.iter().flat_map(|r| r.masks_us.iter().copied()));
    print_percentiles("TTFM us", &ttfm)?;
    if mode != Mode::Validate {
        print_percentiles("TBM us", &masks)?;
    }
    if verified {
        out!("verify: every mask equal to the token-by-token reference mask");
    }
    Ok(())
}

fn print_percentiles(label: &str, sorted: &[f64]) -> Result<(), Error> {
    let mean = sorted.iter().sum::<f64>() / sorted.len().max(1) as f64;
    out!(
        "{label} ({}): mean {:.1}  p25 {:.1}  p50 {:.1}  p75 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
        sorted.len(),
        mean,
        percentile(sorted, 0.25),
        percentile(sorted, 0.5),
        percentile(sorted, 0.75),
        percentile(sorted, 0.9),
        percentile(sorted, 0.99),
        percentile(sorted, 0.999),
        sorted.last().copied().unwrap_or(0.0)
    );
    Ok(())
}

/// `stackmask validate SCHEMA INSTANCE`: exit 0 valid, 1 invalid (with the position),
/// 2 on an error.
pub fn validate(schema: &Path, instance: &Path, one_of: OneOf) -> Result<ExitCode, Error> {
    let text = String::from_utf8(read(schema)?)
        .map_err(|e| Error::Schema { pointer: "#".into(), reason: format!("schema file is not UTF-8: {e}") })?;
    let options = JsonSchemaOptions { one_of, ..JsonSchemaOptions::default() };
    let compiled = compile_json_schema(&text, &options)?;
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
