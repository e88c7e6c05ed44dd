//! `stackmask bench`: teacher-force texts through the classifier's masks and report
//! mask-time percentiles, compile times, classifier size, GSS size per step and peak
//! memory.
//!
//! Per text: tokenize (no special tokens), then for every token compute the mask, check
//! that the true token is allowed, commit it; at the end the mask must allow EOS. Lazy
//! mode builds classifier states inside mask calls (their time counts in those masks);
//! eager mode runs `build_eager` before the first text (deeper edges are still built in
//! mask calls, and counted there). Records in the MaskBench harness
//! format (`{"id", "status", "ttfm_us", "masks_us"}`, read by `shared/peers/summarize.py`,
//! plus `level_nodes`: the GSS nodes on the current level at each mask) go to `--out`.

use crate::records::{self, Record};
use crate::{allows, difference_from_reference, out, percentile, progress_bar, read, sorted};
use stackmask::classifier::{ClassifierConfig, StackClassifier};
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

fn bench_text(classifier: &Arc<StackClassifier>, tokenizer: &Tokenizer, path: &Path, verify: bool) -> Result<Record, Error> {
    let mut record = Record::new(path);
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
        record.level_nodes.push(matcher.recognizer().parser().level_node_count());
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
            let nodes_before = matcher.recognizer().parser().node_count();
            if let Err(e) = matcher.commit(token) {
                return Ok(record.failed("error", format!("commit at step {step}: {e}")));
            }
            record.added_nodes.push(matcher.recognizer().parser().node_count() - nodes_before);
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
    let masks = sorted(records.iter().flat_map(|r| r.masks_us.iter().copied()));
    let ttfm = sorted(records.iter().filter(|r| !r.masks_us.is_empty()).map(|r| r.ttfm_us));
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
    let level = sorted(records.iter().flat_map(|r| &r.level_nodes).map(|&n| n as f64));
    let added = sorted(records.iter().flat_map(|r| &r.added_nodes).map(|&n| n as f64));
    out!(
        "GSS nodes: on the level at a mask p50 {}  p99 {}  max {};  added per token p50 {}  p99 {}  max {}",
        percentile(&level, 0.5),
        percentile(&level, 0.99),
        level.last().copied().unwrap_or(0.0),
        percentile(&added, 0.5),
        percentile(&added, 0.99),
        added.last().copied().unwrap_or(0.0)
    );
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
