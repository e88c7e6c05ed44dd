//! Time loading a classifier artifact, as a server starting up would: map the file,
//! verify its digest and check it against the vocabulary, N times in a row.
//!
//! ```text
//! stackmask bench GRAMMAR TEXT -t TOKENIZER --mode eager --artifact /tmp/g.smc
//! cargo run --release --example load_artifact -- /tmp/g.smc TOKENIZER [N]
//! ```
//!
//! Prints each load's wall time, then the minimum and the median (the figure
//! `docs/benchmarks.md` reports). The tokenizer is loaded once, before the timing.

use stackmask::classifier::{ArtifactConfig, StackClassifier};
use stackmask::tokenizer::Tokenizer;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: load_artifact ARTIFACT TOKENIZER [N]";
    let artifact = PathBuf::from(args.next().ok_or(usage)?);
    let tokenizer = Tokenizer::from_file(args.next().ok_or(usage)?)?;
    let loads: usize = args.next().map_or(Ok(10), |n| n.parse())?;

    let mut times = Vec::with_capacity(loads);
    for _ in 0..loads.max(1) {
        let started = Instant::now();
        let classifier = StackClassifier::open_artifact(&artifact, tokenizer.vocab_arc(), &ArtifactConfig::default())?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
        drop(classifier);
    }
    let listed: Vec<String> = times.iter().map(|ms| format!("{ms:.1}")).collect();
    println!("loads (ms): {}", listed.join(" "));
    times.sort_by(f64::total_cmp);
    println!("min {:.1} ms, median {:.1} ms over {} loads", times[0], times[times.len() / 2], times.len());
    Ok(())
}
