//! `maskbench --mode validate --cross-check`: every instance stackmask's compiled grammar
//! judges is also judged by an established validator, the `jsonschema` crate (crates.io;
//! Cargo feature `jsonschema`, off by default because it needs rustc 1.85 or later), with
//! `format` asserted as stackmask asserts it. Where the two disagree, the instance, both
//! verdicts and MaskBench's label go into the schema's record, and the run prints the
//! disagreements by kind.
//!
//! The reference validator judges the parsed instance; stackmask judges the instance's
//! bytes as MaskBench serializes them. Schemas the reference cannot compile (remote
//! `$ref`s, regexes it refuses) are counted apart.

use crate::out;
use crate::records::Record;
use serde_json::Value;
use stackmask::Error;
use std::io::Write;

/// Why `--cross-check` cannot run in this build.
pub const UNAVAILABLE: &str =
    "this stackmask was built without the `jsonschema` feature; rebuild with `cargo build --release --features jsonschema` (needs rustc >= 1.85)";

/// The reference validator's name and version, as printed.
pub const REFERENCE: &str = "jsonschema 0.61 (crates.io)";

/// The reference validator's verdict on each of `instances` under `schema`, or why it
/// could not compile the schema.
#[cfg(feature = "jsonschema")]
pub fn reference_verdicts(schema: &Value, instances: &[&Value]) -> Result<Vec<bool>, String> {
    let validator = jsonschema::options().should_validate_formats(true).build(schema).map_err(|e| e.to_string())?;
    Ok(instances.iter().map(|instance| validator.is_valid(instance)).collect())
}

/// Fails: the reference validator is not linked in this build.
#[cfg(not(feature = "jsonschema"))]
pub fn reference_verdicts(_schema: &Value, _instances: &[&Value]) -> Result<Vec<bool>, String> {
    Err(UNAVAILABLE.into())
}

/// One instance on which stackmask and the reference validator disagree.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Disagreement {
    /// The instance's index among the file's tests.
    pub test: usize,
    /// MaskBench's label: `true` for a valid instance.
    pub label: bool,
    /// stackmask's verdict.
    pub stackmask: bool,
    /// The reference validator's verdict.
    pub reference: bool,
}

/// The cross-check's part of a schema's record.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SchemaCheck {
    /// Instances both judged.
    pub instances: usize,
    /// Instances where the reference's verdict differs from MaskBench's label.
    pub reference_against_label: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<Disagreement>,
    /// Why the reference could not compile the schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_error: Option<String>,
}

impl SchemaCheck {
    /// Compares `ours` (stackmask's verdicts) with the reference's on `instances`, whose
    /// MaskBench labels are `labels`.
    pub fn of(schema: &Value, instances: &[&Value], labels: &[bool], ours: &[bool]) -> SchemaCheck {
        let theirs = match reference_verdicts(schema, instances) {
            Ok(verdicts) => verdicts,
            Err(reason) => return SchemaCheck { reference_error: Some(reason), ..SchemaCheck::default() },
        };
        let mut check = SchemaCheck { instances: instances.len(), ..SchemaCheck::default() };
        for (test, ((&label, &stackmask), &reference)) in labels.iter().zip(ours).zip(&theirs).enumerate() {
            check.reference_against_label += usize::from(reference != label);
            if stackmask != reference {
                check.disagreements.push(Disagreement { test, label, stackmask, reference });
            }
        }
        check
    }
}

/// Prints the cross-check's totals over `records`, with the first disagreeing schemas of
/// each kind; returns how many instances stackmask accepted and the reference rejected.
pub fn print_totals(records: &[Record]) -> Result<usize, Error> {
    let checks: Vec<(&str, &SchemaCheck)> =
        records.iter().filter_map(|r| r.cross_check.as_ref().map(|c| (r.id.as_str(), c))).collect();
    let compiled = checks.iter().filter(|(_, c)| c.reference_error.is_none()).count();
    let instances: usize = checks.iter().map(|(_, c)| c.instances).sum();
    let against_label: usize = checks.iter().map(|(_, c)| c.reference_against_label).sum();
    out!();
    out!("== cross-check: stackmask validate against {REFERENCE}, formats asserted ==");
    out!("schemas stackmask compiled: {}; the reference compiled {compiled} of them", checks.len());
    out!("instances judged by both: {instances}; the reference differs from MaskBench's label on {against_label}");
    let mut over_accepted = 0;
    for (stackmask, title) in [(true, "stackmask accepts, the reference rejects"), (false, "stackmask rejects, the reference accepts")] {
        let kind = |d: &&Disagreement| d.stackmask == stackmask;
        let count = |label: bool| checks.iter().flat_map(|(_, c)| &c.disagreements).filter(kind).filter(|d| d.label == label).count();
        let (valid, invalid) = (count(true), count(false));
        out!("{title}: {} instances ({valid} labelled valid, {invalid} labelled invalid)", valid + invalid);
        for (id, check) in checks.iter().filter(|(_, c)| c.disagreements.iter().any(|d| kind(&d))).take(10) {
            let tests: Vec<String> = check.disagreements.iter().filter(kind).map(|d| d.test.to_string()).collect();
            out!("  {id}: tests {}", tests.join(", "));
        }
        if stackmask {
            over_accepted = valid + invalid;
        }
    }
    let unavailable = checks.len() - compiled;
    if unavailable > 0 {
        out!("schemas the reference could not compile: {unavailable} (reasons in the records)");
    }
    Ok(over_accepted)
}
