//! The ambiguous DSL grammars of `grammars/` (`grammars/README.md` says where each is
//! ambiguous): each is not LR(1), and the GLR parser holds several stacks on a text using
//! its ambiguity and one on a text avoiding it. Every text of each corpus
//! (`tests/corpora/<name>/`: hand-written `hand_*` and generated `gen_*` files) is a
//! sentence, and teacher-forcing it keeps the classifier's mask equal to the per-class
//! mask at every step and to the reference mask at sampled steps (Llama 3 on every text,
//! Qwen3 and Gemma 3 on the hand-written ones).
//!
//! The `gen_*` files are written by the ignored test `regenerate_corpora`:
//! `cargo test --release --test ambiguous_dsls -- --ignored regenerate_corpora`.
//! Tests needing `../shared` print `SKIPPED:` when it is missing.

mod support;

use stackmask::classifier::StackClassifier;
use stackmask::matcher::Recognizer;
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use support::corpus::{forks_on, shared, teacher_force_with, tokenizers};
use support::generate::Generator;
use support::rng_from_seed;

/// One ambiguous DSL: `grammars/<name>.lark` and its corpus `tests/corpora/<name>/`.
struct Dsl {
    name: &'static str,
    /// File extension of the corpus texts.
    extension: &'static str,
    /// Sentences whose parse the ambiguity splits before their end, one per kind of
    /// ambiguity `grammars/README.md` names.
    ambiguous: &'static [&'static str],
    /// A sentence on which the parser never holds more than one stack.
    unambiguous: &'static str,
    /// Readable lexemes for the generator, per terminal name (`WS` is the only separator).
    lexicon: &'static [(&'static str, &'static [&'static str])],
    /// The generator's derivation depth and length bounds (see `support::generate`).
    depth: u32,
    max_terminals: usize,
}

const DSLS: [Dsl; 4] = [
    Dsl {
        name: "arith",
        extension: "calc",
        ambiguous: &["total = 1 - 2 * 3\n", "y = -x ^ 2\n"],
        unambiguous: "total = (1 - 2) * 3\nprint f(total)\n",
        lexicon: &[
            ("NAME", &["x", "y", "n", "rate", "total", "price", "qty", "sqrt", "max", "f", "area", "tax"]),
            ("WS", &[" "]),
        ],
        depth: 10,
        max_terminals: 80,
    },
    Dsl {
        name: "commands",
        extension: "fish",
        ambiguous: &["make && make test || echo failed\n", "set -x PATH /bin\n", "if test -d out; rm -r out; end\n"],
        unambiguous: "echo hello world > out.txt\ncp -r src/ build/\n",
        lexicon: &[
            ("WORD", &["echo", "ls", "git", "make", "grep", "build/", "src/*.rs", "README.md", "v1.2", "a=b", "origin", "main"]),
            ("NAME", &["x", "files", "count", "PATH", "target"]),
            ("FLAG", &["-l", "-r", "--force", "-x", "--depth=1"]),
            ("VARIABLE", &["$HOME", "$argv[1]", "$status", "$files"]),
            ("STRING", &["\"hello world\"", "'*.log'", "\"$HOME/bin\"", "\"\""]),
            ("WS", &[" "]),
        ],
        depth: 10,
        max_terminals: 80,
    },
    Dsl {
        name: "config",
        extension: "toml",
        ambiguous: &["[server]\nport = 8080\n", "timeout = 30s\n", "enabled = true\n"],
        unambiguous: "[server]\nname = \"web\"\nhosts = [\"a\", \"b\"]\n",
        lexicon: &[
            ("WORD", &["name", "host", "server.port", "localhost", "info", "/var/log/app.log", "alpha", "db-1.internal", "https://example.com/api"]),
            ("STRING", &["\"hello\"", "'C:\\temp'", "\"a \\\"quoted\\\" word\"", "\"\""]),
            ("MULTILINE_STRING", &["\"\"\"\nfirst line\nsecond line\n\"\"\""]),
            ("WS", &[" "]),
        ],
        depth: 16,
        max_terminals: 150,
    },
    Dsl {
        name: "clike",
        extension: "c",
        ambiguous: &[
            "void f(void) { a * b; }\n",
            "void f(void) { T (x); }\n",
            "int f(void) { return (T) - x; }\n",
            "int n = sizeof (T);\n",
            "void f(void) { if (a) if (b) x = 1; else x = 2; }\n",
        ],
        unambiguous: "int main(void) { int x = 2; return x + 1; }\n",
        lexicon: &[
            ("NAME", &["x", "y", "i", "n", "count", "buf", "node", "next", "len", "main", "value", "T"]),
            ("NUMBER", &["0", "1", "42", "3.14", "0x1F", "100u", "2.5f", "1e-9"]),
            ("CHAR", &["'a'", "'\\n'", "'0'"]),
            ("STRING", &["\"hello\"", "\"%d\\n\"", "\"\""]),
            ("WS", &[" ", " ", "\n", "\n    "]),
        ],
        depth: 14,
        max_terminals: 150,
    },
];

impl Dsl {
    fn grammar(&self) -> Grammar {
        let path = repo().join(format!("grammars/{}.lark", self.name));
        Grammar::from_lark(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    fn compiled(&self) -> Arc<CompiledGrammar> {
        Arc::new(CompiledGrammar::new(&self.grammar()).unwrap_or_else(|e| panic!("{}: {e}", self.name)))
    }

    fn corpus(&self) -> PathBuf {
        repo().join("tests/corpora").join(self.name)
    }

    /// The corpus files whose name starts with `prefix`, sorted.
    fn corpus_files(&self, prefix: &str) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.corpus())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
            .collect();
        files.sort();
        files
    }
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn json() -> Arc<CompiledGrammar> {
    Arc::new(CompiledGrammar::new(&Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap()).unwrap())
}

#[test]
fn dsl_grammars_are_not_lr1() {
    assert_eq!(json().tables().conflict_count(), 0, "the unambiguous control");
    for dsl in &DSLS {
        assert!(dsl.compiled().tables().conflict_count() > 0, "{}: no LR(1) conflict", dsl.name);
    }
}

#[test]
fn the_parser_forks_exactly_where_the_grammar_is_ambiguous() {
    let sample = include_str!("../grammars/samples/sample.json");
    assert!(!forks_on(&json(), sample), "the unambiguous control");
    for dsl in &DSLS {
        let compiled = dsl.compiled();
        for text in dsl.ambiguous {
            assert!(forks_on(&compiled, text), "{}: no fork on {text:?}", dsl.name);
        }
        assert!(!forks_on(&compiled, dsl.unambiguous), "{}: a fork on {:?}", dsl.name, dsl.unambiguous);
    }
}

/// Hand-written and generated texts per corpus, at least.
const MIN_HAND_WRITTEN: usize = 5;
const MIN_GENERATED: usize = 50;

/// `Ok` if `text` is a sentence, else why not.
fn check_sentence(compiled: &Arc<CompiledGrammar>, text: &[u8]) -> Result<(), String> {
    let mut r = Recognizer::new(Arc::clone(compiled));
    r.feed(text).map_err(|e| e.to_string())?;
    match r.is_complete() {
        Ok(true) => Ok(()),
        Ok(false) => Err("a prefix of a sentence, not a sentence".into()),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn dsl_corpora_are_sentences() {
    for dsl in &DSLS {
        let compiled = dsl.compiled();
        let (hand, generated) = (dsl.corpus_files("hand_"), dsl.corpus_files("gen_"));
        assert!(hand.len() >= MIN_HAND_WRITTEN && generated.len() >= MIN_GENERATED, "{}: corpus too small", dsl.name);
        for file in hand.iter().chain(&generated) {
            check_sentence(&compiled, &std::fs::read(file).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        }
    }
}

/// Teacher-force `files` with one classifier shared by all of them. Every step compares
/// the classifier's mask with the per-class mask; one text in `reference_every` also
/// compares it with the reference mask at one step, a different one from text to text
/// (the reference feeds the whole vocabulary: up to half a second a step on long
/// ambiguous expressions).
fn teacher_force_files(compiled: &Arc<CompiledGrammar>, tokenizer: &Tokenizer, files: &[PathBuf], reference_every: usize, what: &str) {
    let classifier = Arc::new(StackClassifier::new(Arc::clone(compiled), tokenizer.vocab_arc()));
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap();
        let steps = tokenizer.encode(&text).unwrap().len() + 1;
        let reference_step = (i % reference_every == 0).then_some(i * 17 % steps);
        let verify_at = |step| Some(step) == reference_step;
        teacher_force_with(&classifier, tokenizer, &text, verify_at, &format!("{what} {}", file.display()));
    }
}

#[test]
fn dsl_corpora_token_by_token_with_llama3() {
    let Some(shared) = shared() else { return };
    let (_, llama3) = &tokenizers(&shared)[0];
    for dsl in &DSLS {
        let files = [dsl.corpus_files("hand_"), dsl.corpus_files("gen_")].concat();
        teacher_force_files(&dsl.compiled(), llama3, &files, 10, "llama3");
    }
}

#[test]
fn dsl_hand_written_texts_token_by_token_with_qwen3_and_gemma3() {
    let Some(shared) = shared() else { return };
    for (name, tokenizer) in &tokenizers(&shared)[1..] {
        for dsl in &DSLS {
            teacher_force_files(&dsl.compiled(), tokenizer, &dsl.corpus_files("hand_"), 1, name);
        }
    }
}

/// Generated texts per grammar.
const GENERATED: usize = 100;

/// Rewrites the `gen_*` files of every corpus: seeded random derivations
/// (`support::generate`, with each grammar's lexicon), keeping the texts that are
/// sentences, are UTF-8, and are not already in the corpus.
#[test]
#[ignore = "writes tests/corpora/*/gen_*; run it to regenerate the generated corpora"]
fn regenerate_corpora() {
    for dsl in &DSLS {
        let grammar = dsl.grammar();
        let compiled = dsl.compiled();
        let generator = Generator::new(&grammar, compiled.lexer()).with_separators(&["WS"]);
        let generator = dsl.lexicon.iter().fold(generator, |g, (terminal, lexemes)| g.with_lexicon(terminal, lexemes));
        for old in dsl.corpus_files("gen_") {
            std::fs::remove_file(old).unwrap();
        }
        let mut kept = HashSet::new();
        let mut seed = 0;
        while kept.len() < GENERATED {
            let mut rng = rng_from_seed(seed);
            seed += 1;
            let Some(sentence) = generator.sentence(&mut rng, dsl.depth, dsl.max_terminals) else { continue };
            let Ok(text) = String::from_utf8(sentence.text) else { continue };
            if text.trim().is_empty() {
                continue;
            }
            if check_sentence(&compiled, text.as_bytes()).is_err() || !kept.insert(text.clone()) {
                continue;
            }
            let path = dsl.corpus().join(format!("gen_{:03}.{}", kept.len() - 1, dsl.extension));
            std::fs::write(path, text).unwrap();
        }
    }
}
