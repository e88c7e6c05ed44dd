//! `stackmask bench`: teacher-force texts through the classifier's masks and report
//! mask-time percentiles, compile times, classifier size and peak memory.
//!
//! Per text: tokenize (no special tokens), then for every token compute the mask, check
//! that the true token is allowed, commit it; at the end the mask must allow EOS. Lazy
//! mode builds classifier states inside mask calls (their time counts in those masks);
//! eager mode runs `build_eager` before the first text (deeper edges are still built in
//! mask calls, and counted there), writes the built classifier as an artifact, loads it
//! back and runs the texts on the loaded one. Records in the MaskBench harness
//! format (`{"id", "status", "ttfm_us", "masks_us"}`, read by `shared/peers/summarize.py`)
//! go to `--out`.

use crate::records::{self, Record};
use crate::{allows, difference_from_reference, out, percentile, progress_bar, read};
use stackmask::classifier::{ArtifactConfig, ClassifierConfig, StackClassifier};
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Error, Matcher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// When the classifier's states are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// On first use, inside mask calls.
    Lazy,
    /// All up front.
    Eager,
    /// Lazy, then eager, on the same texts.
    Both,
}

/// What `bench` was asked to do.
pub struct Args {
    pub compiled: Arc<CompiledGrammar>,
    pub compile_s: f64,
    pub tokenizer: Tokenizer,
    pub tokenizer_s: f64,
    pub texts: Vec<PathBuf>,
    pub mode: Mode,
    pub config: ClassifierConfig,
    pub verify: bool,
    pub out: Option<PathBuf>,
    /// Where eager mode writes its classifier artifact.
    pub artifact: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, Error> {
    let texts = records::expand(&args.texts, |_| true)?;
    if texts.is_empty() {
        eprintln!("error: no text files given");
        return Ok(ExitCode::from(2));
    }
    out!(
        "grammar compile {:.1} ms ({} lexer states, {} LR states, {} conflicts); tokenizer load {:.1} ms ({} tokens); {} texts",
        args.compile_s * 1e3,
        args.compiled.lexer().state_count(),
        args.compiled.tables().state_count(),
        args.compiled.tables().conflict_count(),
        args.tokenizer_s * 1e3,
        args.tokenizer.vocab().len(),
        texts.len()
    );
    let modes: &[Mode] = match args.mode {
        Mode::Both => &[Mode::Lazy, Mode::Eager],
        Mode::Lazy => &[Mode::Lazy],
        Mode::Eager => &[Mode::Eager],
    };
    let mut failed = false;
    for &mode in modes {
        let started = Instant::now();
        let classifier = Arc::new(StackClassifier::with_config(
            Arc::clone(&args.compiled),
            args.tokenizer.vocab_arc(),
            args.config.clone(),
        ));
        if mode == Mode::Eager {
            classifier.build_eager()?;
        }
        let build_s = started.elapsed().as_secs_f64();
        let built = classifier.stats();
        let classifier = match mode {
            Mode::Eager => round_trip(&classifier, &args.tokenizer, args.artifact.as_deref(), build_s)?,
            _ => classifier,
        };
        let progress = progress_bar(texts.len() as u64, true);
        let forced = records::run_each(&texts, progress, |path| bench_text(&classifier, &args.tokenizer, path, args.verify))?;
        let Some(records) = forced else {
            return Ok(ExitCode::from(1));
        };
        failed |= records.iter().any(|r| r.status != "pass");
        report(mode, build_s, &built, &classifier, &records, args.verify)?;
        if let Some(path) = &args.out {
            records::write(&out_path(path, mode, modes.len() > 1), &records)?;
        }
    }
    out!("peak memory (VmHWM): {}", peak_memory().unwrap_or_else(|| "unknown".into()));
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Write the eager classifier as an artifact (to `path` too, if given), load it back
/// and report both; the texts then run on the loaded classifier, so `--verify` checks
/// what a server loading the artifact would compute.
fn round_trip(
    classifier: &StackClassifier,
    tokenizer: &Tokenizer,
    path: Option<&Path>,
    build_s: f64,
) -> Result<Arc<StackClassifier>, Error> {
    let started = Instant::now();
    let bytes = classifier.to_artifact()?;
    let write_s = started.elapsed().as_secs_f64();
    if let Some(path) = path {
        std::fs::write(path, &bytes).map_err(|source| Error::Io { path: path.display().to_string(), source })?;
    }
    let started = Instant::now();
    let config = ArtifactConfig { compile: classifier.compiled().config().clone(), classifier: classifier.config().clone() };
    let loaded = StackClassifier::from_artifact(&bytes, tokenizer.vocab_arc(), &config)?;
    let load_s = started.elapsed().as_secs_f64();
    out!(
        "artifact: {:.1} MiB, written in {:.1} ms, loaded in {:.1} ms ({:.0}x faster than the build){}",
        bytes.len() as f64 / 1048576.0,
        write_s * 1e3,
        load_s * 1e3,
        build_s / load_s,
        path.map_or_else(String::new, |p| format!(", saved to {}", p.display()))
    );
    Ok(Arc::new(loaded))
}

fn bench_text(classifier: &Arc<StackClassifier>, tokenizer: &Tokenizer, path: &Path, verify: bool) -> Result<Record, Error> {
    let mut record = Record { max_level_nodes: Some(0), ..Record::new(path) };
    let text = match String::from_utf8(read(path)?) {
        Ok(text) => text,
        Err(e) => return Ok(record.failed("error", format!("not UTF-8: {e}"))),
    };
    let tokens = match tokenizer.encode(&text) {
        Ok(tokens) => tokens,
        Err(e) => return Ok(record.failed("error", e.to_string())),
    };
    let Some(&eos) = tokenizer.vocab().eos_tokens().first() else {
        return Ok(record.failed("error", "the tokenizer has no EOS token".into()));
    };
    let started = Instant::now();
    let mut matcher = Matcher::with_classifier(Arc::clone(classifier));
    let mut mask = vec![0u32; matcher.mask_words()];
    for (step, token) in tokens.iter().copied().chain(std::iter::once(eos)).enumerate() {
        let t0 = Instant::now();
        if let Err(e) = matcher.compute_mask(&mut mask) {
            return Ok(record.failed("error", format!("mask at step {step}: {e}")));
        }
        let us = t0.elapsed().as_secs_f64() * 1e6;
        if step == 0 {
            record.ttfm_us = started.elapsed().as_secs_f64() * 1e6;
        }
        record.masks_us.push(us);
        let level_nodes = matcher.recognizer().parser().level_node_count();
        record.max_level_nodes = record.max_level_nodes.max(Some(level_nodes));
        if verify {
            if let Some(difference) = difference_from_reference(&matcher, &mask, step)? {
                return Ok(record.failed("mask_differs", difference));
            }
        }
        if !allows(&mask, token) {
            let what = if token == eos { "EOS".to_string() } else { tokenizer.vocab().token_name(token) };
            return Ok(record.failed("validation_error", format!("token {step} ({what}) not allowed")));
        }
        if token != eos {
            if let Err(e) = matcher.commit(token) {
                return Ok(record.failed("error", format!("commit at step {step}: {e}")));
            }
        }
    }
    Ok(record)
}

fn report(
    mode: Mode,
    build_s: f64,
    built: &stackmask::classifier::ClassifierStats,
    classifier: &StackClassifier,
    records: &[Record],
    verified: bool,
) -> Result<(), Error> {
    let mut masks: Vec<f64> = records.iter().flat_map(|r| r.masks_us.iter().copied()).collect();
    masks.sort_by(f64::total_cmp);
    let mut ttfm: Vec<f64> = records.iter().filter(|r| !r.masks_us.is_empty()).map(|r| r.ttfm_us).collect();
    ttfm.sort_by(f64::total_cmp);
    let passed = records.iter().filter(|r| r.status == "pass").count();
    let mean = masks.iter().sum::<f64>() / masks.len().max(1) as f64;
    let after = classifier.stats();
    out!();
    out!("== {mode:?} ==");
    out!("classifier build before the first text: {:.1} ms ({} states, {} edges, {} token sets, {:.1} MiB)", build_s * 1e3, built.states, built.edges, built.outputs, built.bytes as f64 / 1048576.0);
    out!(
        "classifier after the texts: {} lexer states, {} states, {} edges, {} token sets, {:.1} MiB, {} overflowed edges",
        after.lexer_states,
        after.states,
        after.edges,
        after.outputs,
        after.bytes as f64 / 1048576.0,
        after.overflowed_edges
    );
    out!("texts: {passed}/{} pass", records.len());
    for r in records.iter().filter(|r| r.status != "pass") {
        out!("  {} {}: {}", r.id, r.status, r.error.as_deref().unwrap_or(""));
    }
    out!(
        "mask us ({} masks): mean {:.2}  p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.1}",
        masks.len(),
        mean,
        percentile(&masks, 0.5),
        percentile(&masks, 0.9),
        percentile(&masks, 0.99),
        percentile(&masks, 0.999),
        masks.last().copied().unwrap_or(0.0)
    );
    out!(
        "time to first mask us: p50 {:.1}  p99 {:.1}  max {:.1}",
        percentile(&ttfm, 0.5),
        percentile(&ttfm, 0.99),
        ttfm.last().copied().unwrap_or(0.0)
    );
    let max_level = records.iter().filter_map(|r| r.max_level_nodes).max().unwrap_or(0);
    out!("largest GSS level at a mask: {max_level} nodes");
    if verified {
        out!("verify: every mask equal to the token-by-token reference mask");
    }
    Ok(())
}

fn out_path(path: &Path, mode: Mode, several: bool) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path.extension().map_or_else(|| "json".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.{}.{ext}", format!("{mode:?}").to_lowercase()))
}

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).map(|v| v.trim().to_string())
}
