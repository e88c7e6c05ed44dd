//! The fuzz targets' bodies on stable Rust, so that CI runs them without cargo-fuzz: the
//! seed corpora in `fuzz/corpus/<target>/` are replayed, then random inputs are drawn
//! with proptest — Lark-like texts built from grammar pieces, operation sequences, texts
//! over a JSON and Java alphabet, and random edits of the seeds. `.ci/fuzz` runs the same
//! bodies coverage-guided under libFuzzer.

#[path = "../fuzz/src/lib.rs"]
mod bodies;

use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// The seed files of one target, sorted by name.
fn seeds(target: &str) -> &'static [Vec<u8>] {
    static CORPORA: OnceLock<Vec<(String, Vec<Vec<u8>>)>> = OnceLock::new();
    let corpora = CORPORA.get_or_init(|| {
        ["lark_compile", "json_schema_compile", "matcher_vs_oracle", "recognizer_feed", "artifact_load"]
            .iter()
            .map(|&name| (name.to_string(), read_corpus(name)))
            .collect()
    });
    &corpora.iter().find(|(name, _)| name == target).expect("known target").1
}

fn read_corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

fn replay(target: &str, body: fn(&[u8])) {
    let corpus = seeds(target);
    assert!(corpus.len() >= 4, "{target}: the seed corpus is missing");
    for seed in corpus {
        body(seed);
    }
}

#[test]
fn lark_compile_replays_its_corpus() {
    replay("lark_compile", bodies::lark_compile);
}

#[test]
fn json_schema_compile_replays_its_corpus() {
    replay("json_schema_compile", bodies::json_schema_compile);
}

#[test]
fn matcher_ops_replays_its_corpus() {
    replay("matcher_vs_oracle", bodies::matcher_ops);
}

#[test]
fn recognizer_feed_replays_its_corpus() {
    replay("recognizer_feed", bodies::recognizer_feed);
}

#[test]
fn artifact_load_replays_its_corpus() {
    replay("artifact_load", bodies::artifact_load);
}

/// The untouched artifact must load and give the reference masks: without this, a
/// change that made every load fail would leave the fuzz body checking nothing.
#[test]
fn artifact_load_accepts_the_written_artifacts() {
    for (choice, data) in bodies::untouched_artifact_inputs().iter().enumerate() {
        assert!(data.len() > 1_000, "artifact {choice} is only {} bytes", data.len());
        bodies::artifact_load(data);
    }
}

/// Rewrites `fuzz/corpus/artifact_load/` from the current build's artifacts (run after a
/// format change): `cargo test --test fuzz_bodies -- --ignored write_artifact_seeds`.
#[test]
#[ignore = "rewrites the artifact_load seed corpus"]
fn write_artifact_seeds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/artifact_load");
    std::fs::create_dir_all(&dir).unwrap();
    for (choice, data) in bodies::untouched_artifact_inputs().iter().enumerate() {
        std::fs::write(dir.join(format!("grammar{choice}")), data).unwrap();
        let truncated = &data[..data.len() / 2];
        std::fs::write(dir.join(format!("grammar{choice}-truncated")), truncated).unwrap();
    }
}

/// One random edit of a seed: replace, insert or delete a byte, or duplicate a slice.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Insert(at, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), 1..16usize).prop_map(|(at, len)| Edit::Duplicate(at, len)),
    ]
}

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for e in edits {
        let len = data.len().max(1);
        match *e {
            Edit::Replace(at, b) if !data.is_empty() => data[at % len] = b,
            Edit::Insert(at, b) => data.insert(at % (data.len() + 1), b),
            Edit::Delete(at) if !data.is_empty() => {
                data.remove(at % len);
            }
            Edit::Duplicate(at, n) if !data.is_empty() => {
                let start = at % len;
                let piece = data[start..(start + n).min(data.len())].to_vec();
                data.splice(start..start, piece);
            }
            _ => {}
        }
    }
    data
}

/// A seed of `target` with up to eight random edits.
fn edited_seed(target: &'static str) -> impl Strategy<Value = Vec<u8>> {
    (0..seeds(target).len(), prop::collection::vec(edit(), 1..8))
        .prop_map(move |(i, edits)| apply(&seeds(target)[i], &edits))
}

/// Pieces of Lark syntax; random sequences of them reach deeper than random bytes.
const LARK_PIECES: &[&str] = &[
    "start",
    ": ",
    "\n",
    " | ",
    "a",
    "b",
    "A",
    "B",
    "X",
    "\"x\"",
    "\"y\"i",
    "\"\"",
    "/[a-z]+/",
    "/a*?b/",
    "/(a|b){2,5}/",
    "/\\d/",
    "/(?=a)/",
    "(",
    ")",
    "[",
    "]",
    "*",
    "+",
    "?",
    "~3",
    "~1..40",
    "\"a\"..\"f\"",
    "%ignore ",
    "%import common.WS",
    "%import common (INT, WORD)",
    "%declare Z",
    "->alias",
    ".2",
    "?",
    "!",
    "_r",
    "{x}",
    "//c\n",
    " ",
];

fn lark_like_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(LARK_PIECES), 1..40)
        .prop_map(|pieces| format!("start: {}", pieces.concat()))
}

/// Bytes of JSON and Java texts, and a few that are never valid.
const TEXT_BYTES: &[u8] = b" \n{}[]():;,.=+-*<>\"\\0123456789abeflnrstuvx\xc3\xa9\xff";

/// Pieces of JSON Schemas and instances, concatenated at random.
const SCHEMA_PIECES: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"type\"", "\"object\"", "\"string\"", "\"integer\"", "\"number\"",
    "\"array\"", "\"null\"", "\"properties\"", "\"required\"", "\"items\"", "\"enum\"", "\"const\"",
    "\"oneOf\"", "\"anyOf\"", "\"allOf\"", "\"not\"", "\"$ref\"", "\"#\"", "\"#/$defs/a\"", "\"$defs\"",
    "\"a\"", "\"pattern\"", "\"^[a-z]+$\"", "\"(\"", "\"minimum\"", "\"maximum\"", "\"maxLength\"",
    "\"minItems\"", "\"format\"", "\"date\"", "\"additionalProperties\"", "\"patternProperties\"",
    "\"multipleOf\"", "0", "1", "-2.5", "1e3", "true", "false", "null", "\n", " ",
];

fn schema_like_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SCHEMA_PIECES), 1..60).prop_map(|pieces| pieces.concat())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn lark_compile_on_lark_like_texts(text in lark_like_text()) {
        bodies::lark_compile(text.as_bytes());
    }

    #[test]
    fn lark_compile_on_edited_seeds(data in edited_seed("lark_compile")) {
        bodies::lark_compile(&data);
    }

    #[test]
    fn json_schema_compile_on_schema_like_texts(text in schema_like_text()) {
        bodies::json_schema_compile(text.as_bytes());
    }

    #[test]
    fn json_schema_compile_on_edited_seeds(data in edited_seed("json_schema_compile")) {
        bodies::json_schema_compile(&data);
    }
}

proptest! {
    #![proptest_config(config(800))]

    #[test]
    fn matcher_ops_on_random_operations(data in prop::collection::vec(any::<u8>(), 1..96)) {
        bodies::matcher_ops(&data);
    }

    #[test]
    fn matcher_ops_on_edited_seeds(data in edited_seed("matcher_vs_oracle")) {
        bodies::matcher_ops(&data);
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn recognizer_feed_on_random_texts(
        choice in any::<u8>(),
        text in prop::collection::vec(prop::sample::select(TEXT_BYTES), 0..200),
    ) {
        let data: Vec<u8> = std::iter::once(choice).chain(text).collect();
        bodies::recognizer_feed(&data);
    }

    #[test]
    fn recognizer_feed_on_edited_seeds(data in edited_seed("recognizer_feed")) {
        bodies::recognizer_feed(&data);
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn artifact_load_on_edited_seeds(data in edited_seed("artifact_load")) {
        bodies::artifact_load(&data);
    }

    #[test]
    fn artifact_load_on_random_bytes(data in prop::collection::vec(any::<u8>(), 0..256)) {
        bodies::artifact_load(&data);
    }
}
