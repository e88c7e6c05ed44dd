//! Criterion benchmarks of the matcher on the embedded defaults (JSON grammar, Qwen3
//! tokenizer, sample document): the stack classifier's mask (eagerly built) and the
//! trie-walk mask at a few positions of the document, the eager build, writing and
//! loading the classifier artifact, the batch API on one and on two threads, and commit;
//! and the spanner rows of the states along a JSON object's key names, with and without
//! kept subtree walks; and the stages of a large schema's compile (LR tables, lexer,
//! the lexer's state equivalence), which make its time to first mask.
//!
//! Run with `cargo bench --bench mask`. The percentile harness over whole corpora is
//! `stackmask bench` (see `docs/benchmarks.md`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use stackmask::classifier::{ArtifactConfig, StackClassifier};
use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
use stackmask::lexer::{Lexer, LexerConfig};
use stackmask::lr::{LrConfig, LrTables};
use stackmask::matcher::{compute_masks_parallel, Recognizer};
use stackmask::spanner::{SpannerConfig, TokenSpanner};
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar, Matcher};
use std::sync::Arc;

const SAMPLE: &str = include_str!("../grammars/samples/sample.json");

fn setup() -> (Arc<CompiledGrammar>, Tokenizer, Vec<u32>) {
    let grammar = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).expect("default grammar");
    let compiled = Arc::new(CompiledGrammar::new(&grammar).expect("compiles"));
    let tokenizer = Tokenizer::embedded_default().expect("embedded tokenizer");
    let tokens = tokenizer.encode(SAMPLE).expect("encodes");
    (compiled, tokenizer, tokens)
}

fn bench_mask(c: &mut Criterion) {
    let (compiled, tokenizer, tokens) = setup();
    let mut group = c.benchmark_group("reference_mask_json_qwen3");
    group.sample_size(10);
    for &at in &[0usize, tokens.len() / 3, 2 * tokens.len() / 3] {
        let mut m = Matcher::new(Arc::clone(&compiled), tokenizer.vocab_arc());
        for &t in &tokens[..at] {
            m.commit(t).expect("sample is valid JSON");
        }
        let mut mask = vec![0u32; m.mask_words()];
        group.bench_with_input(BenchmarkId::from_parameter(at), &at, |b, _| {
            b.iter(|| m.compute_mask_by_trie(&mut mask).expect("mask"))
        });
    }
    group.finish();
}

fn bench_classifier(c: &mut Criterion) {
    let (compiled, tokenizer, tokens) = setup();
    let classifier = Arc::new(StackClassifier::new(Arc::clone(&compiled), tokenizer.vocab_arc()));
    classifier.build_eager().expect("eager build");
    let mut group = c.benchmark_group("classifier_mask_json_qwen3");
    for &at in &[0usize, tokens.len() / 3, 2 * tokens.len() / 3] {
        let mut m = Matcher::with_classifier(Arc::clone(&classifier));
        for &t in &tokens[..at] {
            m.commit(t).expect("sample is valid JSON");
        }
        let mut mask = vec![0u32; m.mask_words()];
        group.bench_with_input(BenchmarkId::from_parameter(at), &at, |b, _| {
            b.iter(|| m.compute_mask(&mut mask).expect("mask"))
        });
    }
    group.finish();
    let mut build = c.benchmark_group("classifier_eager_build_json_qwen3");
    build.sample_size(10);
    build.bench_function("build_eager", |b| {
        b.iter(|| StackClassifier::new(Arc::clone(&compiled), tokenizer.vocab_arc()).build_eager().expect("eager build"))
    });
    build.finish();
}

fn bench_artifact(c: &mut Criterion) {
    let (compiled, tokenizer, _) = setup();
    let classifier = StackClassifier::new(Arc::clone(&compiled), tokenizer.vocab_arc());
    classifier.build_eager().expect("eager build");
    let bytes = classifier.to_artifact().expect("artifact");
    let mut group = c.benchmark_group("classifier_artifact_json_qwen3");
    group.sample_size(10);
    group.bench_function("write", |b| b.iter(|| classifier.to_artifact().expect("artifact")));
    group.bench_function("load", |b| {
        b.iter(|| StackClassifier::from_artifact(&bytes, tokenizer.vocab_arc(), &ArtifactConfig::default()).expect("load"))
    });
    group.finish();
}

/// 64 matchers, each at its own position of the sample, masked in one batch on pools of
/// one and two threads (the CI machine's cores).
fn bench_batch(c: &mut Criterion) {
    let (compiled, tokenizer, tokens) = setup();
    let classifier = Arc::new(StackClassifier::new(Arc::clone(&compiled), tokenizer.vocab_arc()));
    classifier.build_eager().expect("eager build");
    let mut matchers: Vec<Matcher> = (0..64)
        .map(|i| {
            let mut m = Matcher::with_classifier(Arc::clone(&classifier));
            for &t in &tokens[..i * tokens.len() / 64] {
                m.commit(t).expect("sample is valid JSON");
            }
            m
        })
        .collect();
    let mut masks = vec![0u32; matchers.len() * matchers[0].mask_words()];
    let mut group = c.benchmark_group("batch_64_masks_json_qwen3");
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
        group.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, _| {
            b.iter(|| pool.install(|| compute_masks_parallel(&mut matchers, &mut masks).expect("masks")))
        });
    }
    group.finish();
}

fn bench_commit(c: &mut Criterion) {
    let (compiled, tokenizer, tokens) = setup();
    c.bench_function("commit_whole_sample_json_qwen3", |b| {
        b.iter(|| {
            let mut m = Matcher::new(Arc::clone(&compiled), tokenizer.vocab_arc());
            for &t in &tokens {
                m.commit(t).expect("sample is valid JSON");
            }
            m
        })
    });
}

fn bench_compile(c: &mut Criterion) {
    c.bench_function("compile_json_grammar", |b| {
        b.iter(|| CompiledGrammar::new(&Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap()).unwrap())
    });
}

/// A schema of 40 object definitions referring to one another, each with ten typed
/// properties (a hostname, dates, bounded strings and numbers, enums, arrays): large LR
/// tables and a lexer with a counted product, as MaskBench's slowest schemas to compile.
fn large_schema() -> String {
    let property = |d: usize, p: usize| match p % 5 {
        0 => format!(r#""host{p}": {{"type": "string", "format": "hostname"}}"#),
        1 => format!(r#""when{p}": {{"type": "string", "format": "date-time"}}"#),
        2 => format!(r#""name{p}": {{"type": "string", "minLength": 2, "maxLength": 40}}"#),
        3 => format!(r#""kind{p}": {{"enum": ["alpha{d}", "beta{d}", "gamma"]}}"#),
        _ => format!(r##""next{p}": {{"type": "array", "items": {{"$ref": "#/$defs/d{}"}}}}"##, (d + 1) % 40),
    };
    let definitions: Vec<String> = (0..40)
        .map(|d| {
            let properties: Vec<String> = (0..10).map(|p| property(d, p)).collect();
            format!(r#""d{d}": {{"type": "object", "properties": {{{}}}, "required": ["host0"]}}"#, properties.join(", "))
        })
        .collect();
    format!(r##"{{"$defs": {{{}}}, "$ref": "#/$defs/d0"}}"##, definitions.join(", "))
}

fn bench_schema_compile(c: &mut Criterion) {
    let grammar = compile_json_schema(&large_schema(), &JsonSchemaOptions::default()).expect("schema compiles").grammar;
    let lexer = Lexer::new(&grammar, &LexerConfig::default()).expect("lexer");
    let mut group = c.benchmark_group("large_schema_compile");
    group.sample_size(10);
    group.bench_function("lr_tables", |b| b.iter(|| LrTables::new(&grammar, &LrConfig::default()).unwrap().state_count()));
    group.bench_function("lexer", |b| b.iter(|| Lexer::new(&grammar, &LexerConfig::default()).unwrap().state_count()));
    group.bench_function("lexer_equivalence", |b| {
        b.iter(|| lexer.equivalent_within(128, 8 * lexer.state_count()).map(|rows| rows.len()))
    });
    group.finish();
}

/// The rows of the states along a key name, inside an object whose other keys and values
/// are strings, from a fresh spanner: merging the first-level subtree walks that the rows
/// repeat from the "any other string" state, or walking every row whole.
fn bench_key_rows(c: &mut Criterion) {
    let schema = r#"{"type": "object", "properties": {
        "religion_history.get_councils": {"type": "string"},
        "description": {"type": "string"}, "count": {"type": "integer"}},
        "additionalProperties": {"type": "string"}}"#;
    let grammar = compile_json_schema(schema, &JsonSchemaOptions::default()).expect("schema").grammar;
    let compiled = Arc::new(CompiledGrammar::new(&grammar).expect("compiles"));
    let vocab = Tokenizer::embedded_default().expect("embedded tokenizer").vocab_arc();
    let key = "{\"religion_history.get_councils";
    let states: Vec<_> = (2..=key.len())
        .map(|end| {
            let mut r = Recognizer::new(Arc::clone(&compiled));
            r.feed(&key.as_bytes()[..end]).expect("a key prefix");
            r.lex_state()
        })
        .collect();
    let mut group = c.benchmark_group("spanner_key_rows_qwen3");
    group.sample_size(10);
    for (name, config) in [("kept_walks", SpannerConfig::default()), ("walked_whole", SpannerConfig { subtree_walk_bytes: 0 })] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let spanner = TokenSpanner::with_config(Arc::clone(&compiled), Arc::clone(&vocab), &config);
                states.iter().map(|&q| spanner.row(q).token_count()).sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_schema_compile, bench_key_rows, bench_compile, bench_commit, bench_classifier, bench_artifact, bench_batch, bench_mask);
criterion_main!(benches);
