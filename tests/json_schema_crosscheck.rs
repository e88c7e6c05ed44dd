//! The JSON-Schema compiler's semantics against an established validator: on a sample of
//! the MaskBench files (every 40th), every test instance of every schema both compile is
//! judged by stackmask's compiled grammar (the recognizer, no tokenizer) and by the
//! `jsonschema` crate with `format` asserted. stackmask must never accept an instance
//! the reference rejects (that would be a wrong mask); the reverse (stackmask rejecting
//! a valid instance, mostly properties out of declared order) is counted and printed.
//! The whole split runs with `stackmask maskbench --mode validate --cross-check`
//! (feature `jsonschema`). Needs `../shared`; prints `SKIPPED:` without it.

mod support;

use serde_json::Value;
use stackmask::frontend::json_schema::{compile_json_schema_value, JsonSchemaOptions};
use stackmask::matcher::{CompileConfig, Recognizer};
use stackmask::CompiledGrammar;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use support::corpus::{files_with_extension, shared};

/// stackmask's verdict: the instance's JSON text is a complete sentence of the grammar.
fn stackmask_accepts(compiled: &Arc<CompiledGrammar>, instance: &Value) -> bool {
    let text = serde_json::to_string(instance).unwrap();
    let mut recognizer = Recognizer::new(Arc::clone(compiled));
    recognizer.feed(text.as_bytes()).is_ok() && recognizer.is_complete().unwrap()
}

/// What one schema file contributed.
#[derive(Default)]
struct Tally {
    compared: usize,
    agreed: usize,
    /// (file, test index) where stackmask accepts and the reference rejects.
    over_accepted: Vec<String>,
    /// (file, test index) where stackmask rejects and the reference accepts.
    under_accepted: Vec<String>,
}

fn cross_check(path: &Path, tally: &mut Tally) {
    let file: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let schema = &file["schema"];
    let options = JsonSchemaOptions::default();
    let config = CompileConfig { time_budget: Some(Duration::from_millis(1500)), ..CompileConfig::default() };
    let Ok(compiled) = compile_json_schema_value(schema, &options)
        .and_then(|g| CompiledGrammar::with_config(&g.grammar, &config))
        .map(Arc::new)
    else {
        return; // Refused by stackmask: a compile error, never a wrong verdict.
    };
    let Ok(reference) = jsonschema::options().should_validate_formats(true).build(schema) else {
        return;
    };
    let name = path.file_name().unwrap().to_string_lossy();
    for (i, test) in file["tests"].as_array().into_iter().flatten().enumerate() {
        let instance = &test["data"];
        let (ours, theirs) = (stackmask_accepts(&compiled, instance), reference.is_valid(instance));
        tally.compared += 1;
        match (ours, theirs) {
            (true, false) => tally.over_accepted.push(format!("{name} test {i}")),
            (false, true) => tally.under_accepted.push(format!("{name} test {i}")),
            _ => tally.agreed += 1,
        }
    }
}

#[test]
fn validate_never_accepts_what_an_established_validator_rejects() {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED: validate_never_accepts_what_an_established_validator_rejects needs ../shared");
        return;
    };
    let files = files_with_extension(&shared.join("maskbench/data"), "json");
    let mut tally = Tally::default();
    for path in files.iter().step_by(40) {
        cross_check(path, &mut tally);
    }
    eprintln!(
        "cross-check on {} files: {} instances compared, {} agreed, {} over-accepted, {} under-accepted: {:?}",
        files.len().div_ceil(40),
        tally.compared,
        tally.agreed,
        tally.over_accepted.len(),
        tally.under_accepted.len(),
        tally.under_accepted
    );
    assert!(tally.compared > 400, "only {} instances compared", tally.compared);
    assert!(tally.over_accepted.is_empty(), "stackmask accepts what jsonschema rejects: {:?}", tally.over_accepted);
    // Most instances agree; the under-accepted ones are valid instances stackmask's
    // declared property order rejects.
    assert!(tally.under_accepted.len() * 20 < tally.compared, "{:?}", tally.under_accepted);
}
