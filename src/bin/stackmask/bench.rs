//! `stackmask bench`: teacher-force texts through the classifier's masks and report
//! mask-time percentiles, compile times, classifier size and memory; with `--peer
//! llguidance`, the same texts through llguidance in the same process, side by side.
//!
//! Per text: tokenize (no special tokens; once, the same tokens for every engine), then
//! for every token compute the mask, check that the true token is allowed, commit it; at
//! the end the mask must allow EOS (see `forcing.rs`). Lazy mode builds classifier states
//! inside mask calls (their time counts in those masks); eager mode runs `build_eager`
//! before the first text (deeper edges are still built in mask calls, and counted there),
//! writes the built classifier as an artifact, loads it back and runs the texts on the
//! loaded one.
//! The peer compiles the grammar for every text, as the anchors in
//! `shared/bench/anchors/code_llg/` do. Records in the MaskBench harness format
//! (`{"id", "status", "ttfm_us", "masks_us"}`, read by `shared/peers/summarize.py`) go to
//! `--out`, the peer's with `.llguidance` before the extension.

use crate::forcing::{teacher_force, Outcome, Sequence, Stackmask};
use crate::peer::{self, Limits, Llguidance};
use crate::records::{self, Record};
use crate::summary::{self, Column, MemoryProbe, Metric, Sorted, Summary};
use crate::{out, progress_bar, read, read_grammar_text};
use stackmask::classifier::{ArtifactConfig, ClassifierConfig, ClassifierStats, StackClassifier};
use stackmask::tokenizer::{Tokenizer, Vocabulary};
use stackmask::{CompiledGrammar, Error};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    /// Texts eager mode teacher-forces, untimed, after the build (`--warm`).
    pub warm: Vec<PathBuf>,
    pub peer: Option<PeerArgs>,
}

/// The peer's part of a `bench` run (`--peer llguidance`).
pub struct PeerArgs {
    /// The peer's grammar file (`--peer-grammar`, else the bench grammar).
    pub grammar: PathBuf,
    /// llguidance's parser limits (`--peer-limits`).
    pub limits: Option<Limits>,
}

/// Rows of the side-by-side table.
const RUN_METRICS: &[Metric] = &[
    Metric::count("texts", |s| Some(s.records as f64)),
    Metric::count("pass", |s| Some(s.count("pass") as f64)),
];
const COMPILE_METRICS: &[Metric] =
    &[Metric::measure("compile ms (*)", |s| (!s.compile.is_empty()).then(|| s.compile.percentile(0.5) / 1e3))];

/// One text, read and tokenized once for every engine.
struct Input {
    path: PathBuf,
    /// The text and its tokens, or why it could not be had.
    content: Result<(String, Vec<u32>), String>,
}

impl Input {
    fn load(tokenizer: &Tokenizer, path: &Path) -> Result<Input, Error> {
        let content = match String::from_utf8(read(path)?) {
            Err(e) => Err(format!("not UTF-8: {e}")),
            Ok(text) => tokenizer.encode(&text).map(|tokens| (text, tokens)).map_err(|e| e.to_string()),
        };
        Ok(Input { path: path.to_path_buf(), content })
    }
}

/// Runs the benchmark: exit 1 when a text failed with stackmask (the peer's failures are
/// reported, not judged), 2 on usage errors.
pub fn run(args: Args) -> Result<ExitCode, Error> {
    let paths = records::expand(&args.texts, |_| true)?;
    if !args.warm.is_empty() && args.mode == Mode::Lazy {
        eprintln!("error: --warm builds on an eager classifier: use --mode eager or both");
        return Ok(ExitCode::from(2));
    }
    if paths.is_empty() {
        eprintln!("error: no text files given");
        return Ok(ExitCode::from(2));
    }
    let inputs = paths.iter().map(|p| Input::load(&args.tokenizer, p)).collect::<Result<Vec<_>, _>>()?;
    out!(
        "grammar compile {:.1} ms ({} lexer states, {} LR states, {} conflicts); tokenizer load {:.1} ms ({} tokens); {} texts",
        args.compile_s * 1e3,
        args.compiled.lexer().state_count(),
        args.compiled.tables().state_count(),
        args.compiled.tables().conflict_count(),
        args.tokenizer_s * 1e3,
        args.tokenizer.vocab().len(),
        inputs.len()
    );
    // The peer runs first and stays loaded to the end: stackmask's runs can then reuse
    // only the memory the peer's own run freed (see `summary::Memory`).
    let peer = match &args.peer {
        Some(peer_args) => {
            let llg = peer::load(&args.tokenizer, peer_args.limits.clone())?;
            let Some(summary) = run_peer(&llg, peer_args, &args, &inputs)? else {
                return Ok(ExitCode::from(1));
            };
            Some((llg, summary))
        }
        None => None,
    };
    let modes: &[Mode] = match args.mode {
        Mode::Both => &[Mode::Lazy, Mode::Eager],
        Mode::Lazy => &[Mode::Lazy],
        Mode::Eager => &[Mode::Eager],
    };
    let mut runs: Vec<(Mode, Summary)> = Vec::new();
    for &mode in modes {
        let Some(summary) = run_mode(mode, &args, &inputs, modes.len() > 1)? else {
            return Ok(ExitCode::from(1));
        };
        runs.push((mode, summary));
    }
    if let Some((_, peer)) = &peer {
        print_comparison(&runs, peer)?;
    }
    let failed = runs.iter().any(|(_, s)| s.count("pass") < s.records);
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The side-by-side table of stackmask's `runs` and the peer's.
fn print_comparison(runs: &[(Mode, Summary)], peer: &Summary) -> Result<(), Error> {
    out!();
    out!("== side by side: stackmask and llguidance, same process, same texts and tokens (ratio: stackmask / llguidance) ==");
    let mut columns: Vec<Column> =
        runs.iter().map(|(mode, summary)| Column { name: format!("{mode:?}").to_lowercase(), summary }).collect();
    columns.push(Column { name: "llguidance".into(), summary: peer });
    summary::print_side_by_side(
        &columns,
        &[RUN_METRICS, summary::MASK_METRICS, summary::TTFM_METRICS, COMPILE_METRICS, summary::MEMORY_METRICS],
    )?;
    out!("(*) stackmask: grammar compile + classifier build, once for all texts; llguidance: p50 of its compile per text.");
    out!("TTFM: matcher creation (llguidance: its compile) + first mask. RSS growth: peak RSS over the engine's run above the RSS at its start (tokenizers excluded).");
    Ok(())
}

/// Write the eager classifier as an artifact (to `path`, or a temporary file), load it
/// back both ways (mapped from the file, as a server would, and from bytes in memory)
/// and report all three; the texts then run on the mapped classifier, so `--verify`
/// checks what a server loading the artifact would compute.
fn round_trip(
    classifier: Arc<StackClassifier>,
    tokenizer: &Tokenizer,
    path: Option<&Path>,
    build_s: f64,
) -> Result<Arc<StackClassifier>, Error> {
    let started = Instant::now();
    let bytes = classifier.to_artifact()?;
    let write_s = started.elapsed().as_secs_f64();
    let temporary = std::env::temp_dir().join(format!("stackmask-bench-{}.smc", std::process::id()));
    let file = path.unwrap_or(&temporary);
    std::fs::write(file, &bytes).map_err(|source| Error::Io { path: file.display().to_string(), source })?;
    let config = ArtifactConfig { compile: classifier.compiled().config().clone(), classifier: classifier.config().clone() };
    drop(classifier);
    let started = Instant::now();
    drop(StackClassifier::from_artifact(&bytes, tokenizer.vocab_arc(), &config)?);
    let from_bytes_s = started.elapsed().as_secs_f64();
    let mib = bytes.len() as f64 / 1048576.0;
    drop(bytes);
    let started = Instant::now();
    let loaded = StackClassifier::open_artifact(file, tokenizer.vocab_arc(), &config);
    let open_s = started.elapsed().as_secs_f64();
    if path.is_none() {
        // Unlinking a mapped file keeps its pages until the mapping goes.
        let _ = std::fs::remove_file(&temporary);
    }
    let loaded = loaded?;
    out!(
        "artifact: {:.1} MiB, written in {:.1} ms; loaded in {:.1} ms mapped from the file ({:.0}x faster than the build), {:.1} ms from bytes in memory{}",
        mib,
        write_s * 1e3,
        open_s * 1e3,
        build_s / open_s,
        from_bytes_s * 1e3,
        path.map_or_else(String::new, |p| format!("; saved to {}", p.display()))
    );
    Ok(Arc::new(loaded))
}

/// One stackmask mode over every text; `None` when a mask differed from the reference.
fn run_mode(mode: Mode, args: &Args, inputs: &[Input], several: bool) -> Result<Option<Summary>, Error> {
    let probe = MemoryProbe::start();
    let started = Instant::now();
    let classifier =
        Arc::new(StackClassifier::with_config(Arc::clone(&args.compiled), args.tokenizer.vocab_arc(), args.config.clone()));
    if mode == Mode::Eager {
        classifier.build_eager()?;
    }
    let build_s = started.elapsed().as_secs_f64();
    if mode == Mode::Eager && !args.warm.is_empty() {
        warm(&classifier, args, inputs)?;
    }
    let built = classifier.stats();
    let classifier = match mode {
        // The built classifier is dropped as the loaded one replaces it.
        Mode::Eager => round_trip(classifier, &args.tokenizer, args.artifact.as_deref(), build_s)?,
        _ => classifier,
    };
    let vocab = args.tokenizer.vocab();
    let eos = vocab.eos_tokens().first().copied();
    let progress = progress_bar(inputs.len() as u64, true);
    let forced = records::run_each(inputs, progress, 1, |input| bench_text(&classifier, input, eos, args.verify, vocab))?;
    let Some(records) = forced else {
        return Ok(None);
    };
    let mut summary = Summary::of(&records, probe.finish());
    // Compiled once for every text: the grammar, and in eager mode the classifier build.
    summary.compile = Sorted::new(vec![(args.compile_s + build_s) * 1e6]);
    out!();
    out!("== {mode:?} ==");
    print_classifier(build_s, &built, &classifier.stats())?;
    print_run(&records, &summary)?;
    summary::print_by_construction(&records)?;
    print_gss(&records)?;
    if args.verify {
        out!("verify: every mask equal to the token-by-token reference mask");
    }
    if let Some(path) = &args.out {
        let path = if several { records::labelled(path, &format!("{mode:?}").to_lowercase()) } else { path.clone() };
        records::write(&path, &records)?;
    }
    Ok(Some(summary))
}

/// Teacher-force the `--warm` texts through the eager classifier (untimed, before the
/// artifact is written), and say loudly when some of them are also measured texts.
fn warm(classifier: &Arc<StackClassifier>, args: &Args, measured: &[Input]) -> Result<(), Error> {
    let paths = records::expand(&args.warm, |_| true)?;
    let started = Instant::now();
    let before = classifier.stats().edges;
    let (mut tokens, mut stopped) = (0, 0);
    for path in &paths {
        let Ok((_, text_tokens)) = Input::load(&args.tokenizer, path)?.content else {
            stopped += 1;
            continue;
        };
        let committed = StackClassifier::warm(classifier, &text_tokens)?;
        tokens += committed;
        stopped += usize::from(committed < text_tokens.len());
    }
    out!(
        "warmed on {} texts ({} tokens, {} stopped early or unreadable): {} edges built in {:.1} ms",
        paths.len(),
        tokens,
        stopped,
        classifier.stats().edges - before,
        started.elapsed().as_secs_f64() * 1e3
    );
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let warmed: std::collections::HashSet<PathBuf> = paths.iter().map(|p| canonical(p)).collect();
    let both = measured.iter().filter(|input| warmed.contains(&canonical(&input.path))).count();
    if both > 0 {
        out!("WARNING: {both} measured texts were also warm-up texts: their masks are not held-out figures");
    }
    Ok(())
}

/// GSS size per step: nodes on the current level at each mask, nodes added per token.
fn print_gss(records: &[Record]) -> Result<(), Error> {
    let nodes = |per_step: fn(&Record) -> &[usize]| {
        Sorted::new(records.iter().flat_map(per_step).map(|&n| n as f64).collect())
    };
    let level = nodes(|r| &r.level_nodes);
    let added = nodes(|r| &r.added_nodes);
    out!(
        "GSS nodes: on the level at a mask p50 {}  p99 {}  max {};  added per token p50 {}  p99 {}  max {}",
        level.percentile(0.5),
        level.percentile(0.99),
        level.max(),
        added.percentile(0.5),
        added.percentile(0.99),
        added.max()
    );
    Ok(())
}

fn bench_text(
    classifier: &Arc<StackClassifier>,
    input: &Input,
    eos: Option<u32>,
    verify: bool,
    vocab: &Vocabulary,
) -> Result<Record, Error> {
    let mut record = Record::new(&input.path);
    let (_, tokens) = match &input.content {
        Ok(content) => content,
        Err(reason) => return Ok(record.failed("error", reason.clone())),
    };
    let Some(eos) = eos else {
        return Ok(record.failed("error", "the tokenizer has no EOS token".into()));
    };
    let started = Instant::now();
    let mut sequence = Stackmask::new(classifier, verify);
    let setup_us = started.elapsed().as_secs_f64() * 1e6;
    let outcome = teacher_force(&mut sequence, tokens, eos, &mut record.masks_us)?;
    record.level_nodes = std::mem::take(&mut sequence.level_nodes);
    record.added_nodes = std::mem::take(&mut sequence.added_nodes);
    record.built = sequence.take_built();
    Ok(judge(record, setup_us, outcome, &sequence, tokens.len(), vocab))
}

/// The record of a teacher-forced text; `setup_us` (matcher creation, or the peer's
/// compile) plus the first mask is its time to first mask.
fn judge(
    mut record: Record,
    setup_us: f64,
    outcome: Outcome,
    sequence: &impl Sequence,
    n_tokens: usize,
    vocab: &Vocabulary,
) -> Record {
    record.ttfm_us = record.masks_us.first().map(|first| setup_us + first);
    match outcome {
        Outcome::Accepted => record,
        Outcome::Rejected { step, token } => {
            let what = if step == n_tokens { "EOS".to_string() } else { vocab.token_name(token) };
            let why = sequence.error().map_or_else(String::new, |e| format!(": {}", peer::shorten(&e, 300)));
            record.failed("validation_error", format!("token {step} ({what}) not allowed{why}"))
        }
        Outcome::Failed(reason) => record.failed("error", reason),
        Outcome::Differs(difference) => record.failed("mask_differs", difference),
    }
}

/// llguidance over every text (a compile per text); `None` if it stopped early.
fn run_peer(llg: &Llguidance, peer_args: &PeerArgs, args: &Args, inputs: &[Input]) -> Result<Option<Summary>, Error> {
    let grammar = read_grammar_text(&peer_args.grammar)?;
    out!("llguidance grammar: {}", peer_args.grammar.display());
    let probe = MemoryProbe::start();
    let vocab = args.tokenizer.vocab();
    let retokenized = AtomicUsize::new(0);
    let progress = progress_bar(inputs.len() as u64, true);
    let forced = records::run_each(inputs, progress, 1, |input| {
        let (record, same_tokens) = peer_text(llg, &grammar, input, vocab)?;
        retokenized.fetch_add(usize::from(!same_tokens), Ordering::Relaxed);
        Ok(record)
    })?;
    let retokenized = retokenized.into_inner();
    let Some(records) = forced else {
        return Ok(None);
    };
    let summary = Summary::of(&records, probe.finish());
    out!();
    out!("== llguidance ==");
    print_run(&records, &summary)?;
    print_compile(&summary.compile)?;
    out!("token sequences: {retokenized} of {} texts tokenize differently with llguidance's own tokenizer (both engines were given stackmask's)", inputs.len());
    if let Some(path) = &args.out {
        records::write(&records::labelled(path, "llguidance"), &records)?;
    }
    Ok(Some(summary))
}

/// One text through llguidance: its record, and whether llguidance's own tokenizer gives
/// the same tokens.
fn peer_text(llg: &Llguidance, grammar: &str, input: &Input, vocab: &Vocabulary) -> Result<(Record, bool), Error> {
    let mut record = Record::new(&input.path);
    let (text, tokens) = match &input.content {
        Ok(content) => content,
        Err(reason) => return Ok((record.failed("error", reason.clone()), true)),
    };
    let same_tokens = llg.tokenize(text) == *tokens;
    let started = Instant::now();
    let compiled = llg.compile(grammar);
    let compile_us = started.elapsed().as_secs_f64() * 1e6;
    let mut matcher = match compiled {
        Ok(matcher) => matcher,
        Err(e) => return Ok((record.failed("compile_error", peer::shorten(&e, 300)), same_tokens)),
    };
    record.compile_us = Some(compile_us);
    let outcome = teacher_force(&mut matcher, tokens, llg.eos(), &mut record.masks_us)?;
    Ok((judge(record, compile_us, outcome, &matcher, tokens.len(), vocab), same_tokens))
}

fn print_classifier(build_s: f64, built: &ClassifierStats, after: &ClassifierStats) -> Result<(), Error> {
    out!(
        "classifier build before the first text: {:.1} ms ({} states, {} edges, {} token sets, {:.1} MiB)",
        build_s * 1e3,
        built.states,
        built.edges,
        built.outputs,
        built.bytes as f64 / 1048576.0
    );
    out!(
        "classifier after the texts: {} lexer states (and {} derived), {} states, {} edges, {} token sets, {:.1} MiB, {} overflowed edges",
        after.lexer_states,
        after.derived_lexer_states,
        after.states,
        after.edges,
        after.outputs,
        after.bytes as f64 / 1048576.0,
        after.overflowed_edges
    );
    Ok(())
}

/// Pass count, failures (the first few), mask and TTFM percentiles, memory.
fn print_run(records: &[Record], summary: &Summary) -> Result<(), Error> {
    const SHOWN: usize = 10;
    out!("texts: {}/{} pass", summary.count("pass"), records.len());
    let failures: Vec<&Record> = records.iter().filter(|r| r.status != "pass").collect();
    for r in failures.iter().take(SHOWN) {
        out!("  {} {}: {}", r.id, r.status, r.error.as_deref().unwrap_or(""));
    }
    if failures.len() > SHOWN {
        out!("  … {} more ({})", failures.len() - SHOWN, summary.status_list());
    }
    summary.print_masks("mask us")?;
    summary.print_ttfm()?;
    summary::print_memory(&summary.memory)
}

fn print_compile(compile: &Sorted) -> Result<(), Error> {
    out!(
        "grammar compile per text us ({}): p50 {:.1}  p99 {:.1}  max {:.1}",
        compile.len(),
        compile.percentile(0.5),
        compile.percentile(0.99),
        compile.max()
    );
    Ok(())
}

