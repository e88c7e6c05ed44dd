//! The `stackmask` command-line tool.
//!
//! * `stackmask check GRAMMAR TEXT_FILE`: does the text belong to the grammar?
//!   Exit 0 accepted, 1 rejected (with the failing byte offset, line and column),
//!   2 for usage or grammar errors.
//! * `stackmask trace [GRAMMAR TEXT_FILE] [--tokenizer T] [--verify]`: tokenize the text,
//!   teacher-force it token by token and print, per token, whether the mask allowed it,
//!   the mask's popcount and the time to compute it. Without arguments it runs on the
//!   embedded defaults: the JSON grammar, a sample document and the Qwen3 tokenizer.
//! * `stackmask bench GRAMMAR --tokenizer T [--mode lazy|eager|both] [--eager-depth N]
//!   [--max-known-stack N] [--out FILE] [--artifact FILE] [--verify] TEXT…`: teacher-force
//!   texts (files or folders) and print mask-time percentiles, compile times, classifier
//!   size, artifact size and load time, GSS sizes and memory (see `bench.rs`).
//!   `--peer llguidance` runs llguidance (feature `llguidance`) on the same texts in the
//!   same process and prints both side by side.
//! * `stackmask maskbench PATH… --tokenizer T [--peer llguidance]`: the MaskBench harness
//!   (see `maskbench.rs`).

mod bench;
mod crosscheck;
mod forcing;
mod maskbench;
mod peer;
mod records;
mod summary;

use clap::{Parser as ClapParser, Subcommand};
use stackmask::matcher::{oracle, CompileConfig, Recognizer};
use stackmask::classifier::{ClassifierConfig, StackClassifier};
use stackmask::frontend::json_schema::{Formats, JsonSchemaOptions, OneOf, PropertyOrder};
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Error, Grammar, Matcher, Position};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::io::Write;
use std::time::Instant;

/// See the `mimalloc` feature in `Cargo.toml`: the CLI's work is many small allocations.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How long the allocator keeps memory freed to it before returning it to the OS, as a
/// server's allocator stays warm between requests. With mimalloc's default (1 s) a large
/// compile after a stretch of small ones faulted in and zeroed fresh pages for its
/// tables, a tenth of its time; kept 10 s, it reuses the last large compile's. The cost:
/// the process holds its peak memory about 10 s longer (MaskBench's peak RSS: +5%).
/// `MIMALLOC_PURGE_DELAY` in the environment overrides it.
#[cfg(feature = "mimalloc")]
const FREED_MEMORY_KEPT_MS: std::ffi::c_long = 10_000;

/// `mi_option_purge_delay`: its number in mimalloc's `mi_option_t` (libmimalloc-sys
/// does not name it).
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Sets [`FREED_MEMORY_KEPT_MS`], unless the environment sets the delay; before any
/// other thread starts.
#[cfg(feature = "mimalloc")]
fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: sets one allocator option, at the start of `main`, before any thread is
    // spawned (mimalloc's option setters are not thread-safe).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, FREED_MEMORY_KEPT_MS) }
}

/// `println!` that reports a closed stdout (e.g. `| head`) as an error instead of panicking.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::stdout_error)?
    };
}

fn stdout_error(source: std::io::Error) -> Error {
    Error::Io { path: "<stdout>".into(), source }
}

const DEFAULT_TEXT: &str = include_str!("../../../grammars/samples/sample.json");

#[derive(ClapParser)]
#[command(name = "stackmask", version, about = "Grammar-constrained decoding: exact token masks over a GLR parse")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check whether a text file is a sentence of a grammar.
    Check {
        /// Lark grammar file.
        grammar: PathBuf,
        /// The text to check.
        text: PathBuf,
    },
    /// Teacher-force a text token by token and print the mask at every step.
    Trace {
        /// Lark grammar file (default: the embedded JSON grammar).
        grammar: Option<PathBuf>,
        /// Text file (default: an embedded sample JSON document).
        text: Option<PathBuf>,
        /// HuggingFace tokenizer.json, plain or gzipped (default: embedded Qwen3).
        #[arg(long, short)]
        tokenizer: Option<PathBuf>,
        /// Check every mask against the exact reference mask; fail on the first difference.
        #[arg(long)]
        verify: bool,
        /// Print only the summary, not one line per token.
        #[arg(long, short)]
        summary: bool,
        /// Which exact mask path to time.
        #[arg(long, value_enum, default_value_t = MaskPath::Classifier)]
        mask: MaskPath,
    },
    /// Teacher-force texts and report mask-time percentiles, compile time and memory.
    Bench {
        /// Lark grammar file.
        grammar: PathBuf,
        /// Text files, or folders of them.
        #[arg(required = true)]
        texts: Vec<PathBuf>,
        /// HuggingFace tokenizer.json, plain or gzipped (default: embedded Qwen3).
        #[arg(long, short)]
        tokenizer: Option<PathBuf>,
        /// When the classifier is built.
        #[arg(long, value_enum, default_value_t = bench::Mode::Both)]
        mode: bench::Mode,
        /// Check every mask against the exact reference mask; fail on the first difference.
        #[arg(long)]
        verify: bool,
        /// Stack states read along the edges the eager build makes (deeper ones are built
        /// on first use).
        #[arg(long, default_value_t = ClassifierConfig::default().eager_depth)]
        eager_depth: usize,
        /// Stack states one symbolic run of the classifier may know; a step needing more
        /// uses the exact per-class mask (counted as an overflowed edge).
        #[arg(long, default_value_t = ClassifierConfig::default().max_known_stack)]
        max_known_stack: usize,
        /// Write one record per text (MaskBench harness format) to this JSON file; with
        /// `--mode both`, FILE's stem gets `.lazy` and `.eager`, and the peer's `.llguidance`.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Save the eager classifier's artifact to this file (eager mode always writes
        /// one in memory, loads it back and runs the texts on the loaded classifier).
        #[arg(long)]
        artifact: Option<PathBuf>,
        /// Eager mode: after the build, teacher-force these texts (files, or folders of
        /// them) untimed, so that the edges their stacks need beyond the eager depth are
        /// built and kept in the artifact; the measured texts should be others.
        #[arg(long, num_args = 1..)]
        warm: Vec<PathBuf>,
        #[command(flatten)]
        peer: PeerOptions,
        /// The peer's grammar file, when it needs an adjusted copy (default: GRAMMAR).
        #[arg(long, requires = "peer")]
        peer_grammar: Option<PathBuf>,
    },
    /// Run MaskBench schema files: compile each schema, teacher-force its test
    /// instances, report status counts and TTFM/TBM percentiles.
    Maskbench {
        /// MaskBench files, or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// HuggingFace tokenizer.json, plain or gzipped (required unless `--mode validate`).
        #[arg(long, short)]
        tokenizer: Option<PathBuf>,
        /// How masks are computed.
        #[arg(long, value_enum, default_value_t = maskbench::Mode::Lazy)]
        mode: maskbench::Mode,
        #[command(flatten)]
        schema: SchemaArgs,
        /// Check every mask against the exact reference mask; stop on the first difference.
        #[arg(long)]
        verify: bool,
        /// Run every Nth file only.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Run this many schemas at once (with `--verify` or `--mode validate` only:
        /// schemas run side by side time each other's work).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Time budget per schema, in milliseconds, of its translation to a grammar and,
        /// apart, of the grammar's compile (lexer and LR tables); a schema over either is
        /// a compile error.
        #[arg(long, default_value_t = 2000)]
        compile_budget_ms: u64,
        /// Write one record per schema (MaskBench harness format) to this JSON file (the
        /// peer's with `.llguidance` before the extension).
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        peer: PeerOptions,
        /// With `--mode validate`: judge every instance with an established validator too
        /// (the `jsonschema` crate, formats asserted) and report where it and stackmask
        /// disagree; exit 1 if stackmask accepts an instance it rejects (needs the Cargo
        /// feature `jsonschema`).
        #[arg(long)]
        cross_check: bool,
    },
    /// Check a JSON instance against a JSON Schema with the compiled grammar (no tokenizer).
    Validate {
        /// JSON Schema file.
        schema: PathBuf,
        /// JSON instance file.
        instance: PathBuf,
        #[command(flatten)]
        schema_args: SchemaArgs,
    },
}

/// How JSON Schemas compile.
#[derive(clap::Args)]
struct SchemaArgs {
    /// `oneOf` semantics: exact (default; overlapping branches are a compile error) or
    /// as anyOf (such schemas are counted separately).
    #[arg(long, value_enum, default_value_t = OneOfArg::Exact)]
    one_of: OneOfArg,
    /// Orders in which an object's properties may be written.
    #[arg(long, value_enum, default_value_t = PropertyOrderArg::Any)]
    property_order: PropertyOrderArg,
    /// Which `format` values are asserted: every one known, in every draft (default, as
    /// MaskBench's labels), or only those the schema's draft defines.
    #[arg(long, value_enum, default_value_t = FormatsArg::EveryDraft)]
    formats: FormatsArg,
    /// With `--property-order any`: most declared properties an object may have for any
    /// order to apply (larger objects keep the declared or required-first order).
    #[arg(long, default_value_t = JsonSchemaOptions::default().max_any_order_properties)]
    max_any_order: usize,
}

impl SchemaArgs {
    fn options(&self) -> JsonSchemaOptions {
        JsonSchemaOptions {
            one_of: self.one_of.into(),
            property_order: self.property_order.into(),
            formats: self.formats.into(),
            max_any_order_properties: self.max_any_order,
            ..JsonSchemaOptions::default()
        }
    }
}

/// Format vocabularies on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FormatsArg {
    /// Every format known, in every draft.
    EveryDraft,
    /// Only the formats the schema's draft defines.
    OfTheDraft,
}

impl From<FormatsArg> for Formats {
    fn from(a: FormatsArg) -> Formats {
        match a {
            FormatsArg::EveryDraft => Formats::EveryDraft,
            FormatsArg::OfTheDraft => Formats::OfTheDraft,
        }
    }
}

/// Property orders on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum PropertyOrderArg {
    /// As declared, undeclared properties last.
    Declared,
    /// As declared, or the required ones first.
    RequiredFirst,
    /// Any order, each property at most once (objects up to `--max-any-order` properties).
    Any,
}

impl From<PropertyOrderArg> for PropertyOrder {
    fn from(a: PropertyOrderArg) -> PropertyOrder {
        match a {
            PropertyOrderArg::Declared => PropertyOrder::Declared,
            PropertyOrderArg::RequiredFirst => PropertyOrder::DeclaredOrRequiredFirst,
            PropertyOrderArg::Any => PropertyOrder::Any,
        }
    }
}

/// The peer engine run beside stackmask.
#[derive(clap::Args)]
struct PeerOptions {
    /// Also run this engine on the same data in the same process and print both side by
    /// side: `llguidance` (needs the Cargo feature `llguidance`).
    #[arg(long, value_parser = peer::parse_peer)]
    peer: Option<peer::Peer>,
    /// llguidance parser limits as JSON, e.g. '{"step_max_items": 500000}' (fields left out
    /// keep llguidance's defaults).
    #[arg(long, value_parser = peer::parse_limits, requires = "peer")]
    peer_limits: Option<peer::Limits>,
}

/// `oneOf` semantics on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum OneOfArg {
    /// Exactly one branch (overlapping branches are a compile error).
    Exact,
    /// As anyOf where branches may overlap.
    AnyOf,
}

impl From<OneOfArg> for OneOf {
    fn from(a: OneOfArg) -> OneOf {
        match a {
            OneOfArg::Exact => OneOf::Exact,
            OneOfArg::AnyOf => OneOf::AsAnyOf,
        }
    }
}

/// The mask computations `trace` can time; all are exact and equal.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum MaskPath {
    /// The stack classifier, built lazily (`Matcher::compute_mask` with a classifier).
    Classifier,
    /// Walk the token trie from the current state.
    Trie,
    /// One parser simulation per token class of the token spanner.
    Classes,
}

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    keep_freed_memory();
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check { grammar, text } => check(&grammar, &text),
        Command::Trace { grammar, text, tokenizer, verify, summary, mask } => {
            trace(grammar.as_deref(), text.as_deref(), tokenizer.as_deref(), verify, summary, mask)
        }
        Command::Bench {
            grammar,
            texts,
            tokenizer,
            mode,
            verify,
            eager_depth,
            max_known_stack,
            out,
            artifact,
            warm,
            peer,
            peer_grammar,
        } => {
            let config = ClassifierConfig { eager_depth, max_known_stack, ..ClassifierConfig::default() };
            let peer = peer.peer.map(|peer::Peer::Llguidance| bench::PeerArgs {
                grammar: peer_grammar.unwrap_or_else(|| grammar.clone()),
                limits: peer.peer_limits,
            });
            bench_inputs(&grammar, tokenizer.as_deref()).and_then(|(compiled, compile_s, tokenizer, tokenizer_s)| {
                let args = bench::Args {
                    compiled,
                    compile_s,
                    tokenizer,
                    tokenizer_s,
                    texts,
                    mode,
                    config,
                    verify,
                    out,
                    artifact,
                    warm,
                    peer,
                };
                bench::run(args)
            })
        }
        Command::Maskbench {
            paths,
            tokenizer,
            mode,
            schema,
            verify,
            every,
            jobs,
            compile_budget_ms,
            out,
            peer,
            cross_check,
        } => {
            let mut compile = CompileConfig {
                time_budget: Some(std::time::Duration::from_millis(compile_budget_ms)),
                ..CompileConfig::default()
            };
            tokenizer.as_deref().map(Tokenizer::from_file).transpose().and_then(|tokenizer| {
                if let Some(tokenizer) = &tokenizer {
                    compile.lexer = compile.lexer.serving_vocabulary(&tokenizer.vocab_arc());
                }
                let options = JsonSchemaOptions { time_budget: compile.time_budget, ..schema.options() };
                let peer = peer.peer.map(|peer::Peer::Llguidance| maskbench::PeerArgs { limits: peer.peer_limits });
                maskbench::run(maskbench::Args {
                    paths,
                    tokenizer,
                    mode,
                    options,
                    verify,
                    every,
                    jobs,
                    compile,
                    out,
                    peer,
                    cross_check,
                })
            })
        }
        Command::Validate { schema, instance, schema_args } => maskbench::validate(&schema, &instance, &schema_args.options()),
    };
    match outcome {
        Ok(code) => code,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Load the tokenizer and compile the grammar for `bench`, timing both.
fn bench_inputs(grammar: &Path, tokenizer: Option<&Path>) -> Result<(Arc<CompiledGrammar>, f64, Tokenizer, f64), Error> {
    let started = Instant::now();
    let tokenizer = load_tokenizer(tokenizer)?;
    let tokenizer_s = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let compiled = load_grammar(Some(grammar))?;
    let compile_s = started.elapsed().as_secs_f64();
    Ok((compiled, compile_s, tokenizer, tokenizer_s))
}

fn load_tokenizer(path: Option<&Path>) -> Result<Tokenizer, Error> {
    match path {
        Some(p) => Tokenizer::from_file(p),
        None => Tokenizer::embedded_default(),
    }
}

/// Whether `mask` allows `token`.
fn allows(mask: &[u32], token: u32) -> bool {
    mask.get(token as usize / 32).is_some_and(|w| w >> (token % 32) & 1 == 1)
}

/// How `mask`, computed at `step`, differs from `matcher`'s reference mask; `None` when
/// they are equal.
fn difference_from_reference(matcher: &Matcher, mask: &[u32], step: usize) -> Result<Option<String>, Error> {
    let reference = oracle::reference_mask(matcher)?;
    if reference == mask {
        return Ok(None);
    }
    let (only_fast, only_reference) = oracle::differing_tokens(mask, &reference);
    let vocab = matcher.vocab();
    Ok(Some(format!(
        "MASK DIFFERS from the reference at step {step}: {} tokens only in the fast mask, {} only in the reference (first: {:?} / {:?})",
        only_fast.len(),
        only_reference.len(),
        only_fast.first().map(|&t| vocab.token_name(t)),
        only_reference.first().map(|&t| vocab.token_name(t))
    )))
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Io { path: path.display().to_string(), source })
}

/// A grammar file's text.
fn read_grammar_text(path: &Path) -> Result<String, Error> {
    String::from_utf8(read(path)?).map_err(|e| Error::Grammar {
        position: Position::default(),
        reason: format!("{}: grammar file is not UTF-8: {e}", path.display()),
    })
}

fn load_grammar(path: Option<&Path>) -> Result<Arc<CompiledGrammar>, Error> {
    let grammar = match path {
        None => Grammar::from_lark(stackmask::DEFAULT_GRAMMAR)?,
        Some(p) => Grammar::from_lark(&read_grammar_text(p)?)?,
    };
    Ok(Arc::new(CompiledGrammar::new(&grammar)?))
}

fn check(grammar: &Path, text_path: &Path) -> Result<ExitCode, Error> {
    report_recognition(load_grammar(Some(grammar))?, &read(text_path)?)
}

/// Feeds `text` to a recognizer and reports: exit 0 accepted, 1 rejected (with where).
fn report_recognition(compiled: Arc<CompiledGrammar>, text: &[u8]) -> Result<ExitCode, Error> {
    let mut recognizer = Recognizer::new(compiled);
    match recognizer.feed(text) {
        Err(Error::Rejected { offset, reason }) => {
            let at = Position::of_offset(&String::from_utf8_lossy(text), offset);
            out!("rejected at byte {offset} ({at}): {reason}");
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(e),
        Ok(()) if recognizer.is_complete()? => {
            out!("accepted ({} bytes)", text.len());
            Ok(ExitCode::SUCCESS)
        }
        Ok(()) => {
            out!("rejected at end of input (byte {}): the text is a prefix, not a sentence", text.len());
            Ok(ExitCode::from(1))
        }
    }
}

fn trace(
    grammar: Option<&Path>,
    text_path: Option<&Path>,
    tokenizer: Option<&Path>,
    verify: bool,
    summary_only: bool,
    mask_path: MaskPath,
) -> Result<ExitCode, Error> {
    if grammar.is_some() != text_path.is_some() {
        eprintln!("error: give both GRAMMAR and TEXT_FILE, or neither for the embedded defaults");
        return Ok(ExitCode::from(2));
    }
    let started = Instant::now();
    let compiled = load_grammar(grammar)?;
    let compile_time = started.elapsed();
    let started = Instant::now();
    let tokenizer = load_tokenizer(tokenizer)?;
    let tokenizer_time = started.elapsed();
    let text = match text_path {
        Some(p) => String::from_utf8(read(p)?)
            .map_err(|e| Error::Rejected { offset: e.utf8_error().valid_up_to(), reason: "text file is not UTF-8".into() })?,
        None => DEFAULT_TEXT.to_string(),
    };
    let tokens = tokenizer.encode(&text)?;
    let vocab = tokenizer.vocab_arc();
    let classifier = Arc::new(StackClassifier::new(compiled, Arc::clone(&vocab)));
    let spanner = Arc::clone(classifier.spanner());
    let mut matcher = Matcher::with_classifier(Arc::clone(&classifier));
    let mut mask = vec![0u32; matcher.mask_words()];
    let mut times_us: Vec<f64> = Vec::with_capacity(tokens.len() + 1);
    let progress = progress_bar(tokens.len() as u64 + 1, summary_only);
    if !summary_only {
        out!("{:>6}  {:<24} {:>7} {:>9} {:>11}", "step", "token", "allowed", "popcount", "mask_us");
    }
    let eos = vocab.eos_tokens().first().copied();
    let steps = tokens.iter().copied().map(Some).chain(std::iter::once(eos));
    for (step, token) in steps.enumerate() {
        let t0 = Instant::now();
        match mask_path {
            MaskPath::Classifier => matcher.compute_mask(&mut mask)?,
            MaskPath::Trie => matcher.compute_mask_by_trie(&mut mask)?,
            MaskPath::Classes => matcher.compute_mask_by_classes(&spanner, &mut mask)?,
        }
        let us = t0.elapsed().as_secs_f64() * 1e6;
        times_us.push(us);
        if verify {
            if let Some(difference) = difference_from_reference(&matcher, &mask, step)? {
                eprintln!("{difference}");
                return Ok(ExitCode::from(1));
            }
        }
        let Some(token) = token else {
            eprintln!("no EOS token known for this tokenizer; the end of text was not checked");
            break;
        };
        let allowed = allows(&mask, token);
        if !summary_only {
            let popcount: u32 = mask.iter().map(|w| w.count_ones()).sum();
            out!("{step:>6}  {:<24} {:>7} {popcount:>9} {us:>11.1}", truncate(&vocab.token_name(token), 24), allowed);
        }
        progress.inc(1);
        if !allowed {
            progress.finish_and_clear();
            out!("token {step} ({}) is not allowed by the grammar: rejected", vocab.token_name(token));
            return Ok(ExitCode::from(1));
        }
        matcher.commit(token)?;
    }
    progress.finish_and_clear();
    let summary = Summary { mask_path, compile_s: compile_time.as_secs_f64(), tokenizer_s: tokenizer_time.as_secs_f64(), verified: verify, rows_built: spanner.rows_built() };
    print_summary(&times_us, tokens.len(), &summary)?;
    Ok(ExitCode::SUCCESS)
}

fn progress_bar(len: u64, visible: bool) -> indicatif::ProgressBar {
    if !visible || len < 200 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} tokens {elapsed}").expect("valid template"),
    );
    bar
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

struct Summary {
    mask_path: MaskPath,
    compile_s: f64,
    tokenizer_s: f64,
    verified: bool,
    rows_built: usize,
}

fn print_summary(times_us: &[f64], tokens: usize, s: &Summary) -> Result<(), Error> {
    let sorted = summary::Sorted::new(times_us.to_vec());
    let pct = |p: f64| sorted.percentile(p);
    out!();
    out!("tokens: {tokens}, masks: {}", sorted.len());
    out!("grammar compile: {:.1} ms, tokenizer load: {:.1} ms", s.compile_s * 1e3, s.tokenizer_s * 1e3);
    if !sorted.is_empty() {
        out!(
            "mask time ({:?} path, lazy spanner rows: {} built) us: p50 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
            s.mask_path,
            s.rows_built,
            pct(0.5),
            pct(0.99),
            pct(0.999),
            sorted.max()
        );
    }
    if s.verified {
        out!("verify: every mask equal to the token-by-token reference mask");
    }
    Ok(())
}

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    /// The option number set is mimalloc's purge delay: it reads that option's default.
    #[test]
    fn the_option_set_is_the_purge_delay() {
        // SAFETY: reads one allocator option; no other thread sets options.
        let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        let overridden = std::env::var_os("MIMALLOC_PURGE_DELAY").is_some();
        assert!(overridden || delay == 1000, "option {} reads {delay}, not the purge delay's default of 1000 ms", super::MI_OPTION_PURGE_DELAY);
    }
}
