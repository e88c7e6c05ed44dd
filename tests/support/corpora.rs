//! Helpers for the tests that read real-code corpora and tokenizers: where `../shared` is,
//! compiling a grammar file, picking corpus files, and teacher-forcing a text with the
//! classifier mask checked against the per-class and reference masks.

#![allow(dead_code)] // each test crate uses some of these

use stackmask::classifier::StackClassifier;
use stackmask::matcher::oracle;
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar, Matcher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `../shared` next to the checkout, or `None` after printing `SKIPPED:`.
pub fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("SKIPPED: ../shared not found");
        None
    }
}

pub fn compile_file(path: &Path) -> stackmask::Result<CompiledGrammar> {
    let text = std::fs::read_to_string(path).unwrap();
    CompiledGrammar::new(&Grammar::from_lark(&text)?)
}

/// The files of `dir` whose name ends with `.ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect();
    files.sort();
    files
}

/// The `n` smallest files of a corpus.
pub fn smallest(dir: &Path, n: usize) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).map(|p| (p.metadata().unwrap().len(), p)).collect();
    files.sort();
    files.into_iter().take(n).map(|(_, p)| p).collect()
}

/// Teacher-force `text`: at every step the stack classifier's mask allows the true token
/// and equals the per-class mask, and at `verify_every`-th steps it equals the
/// token-by-token reference mask.
pub fn teacher_force(compiled: Arc<CompiledGrammar>, tokenizer: &Tokenizer, text: &str, verify_every: usize, what: &str) {
    let tokens = tokenizer.encode(text).unwrap();
    let classifier = Arc::new(StackClassifier::new(compiled, tokenizer.vocab_arc()));
    let spanner = Arc::clone(classifier.spanner());
    let mut m = Matcher::with_classifier(classifier);
    let mut mask = vec![0u32; m.mask_words()];
    let mut by_classes = mask.clone();
    let eos = tokenizer.vocab().eos_tokens()[0];
    for (step, &t) in tokens.iter().chain(std::iter::once(&eos)).enumerate() {
        m.compute_mask(&mut mask).unwrap();
        m.compute_mask_by_classes(&spanner, &mut by_classes).unwrap();
        assert!(mask == by_classes, "{what}: step {step}: classifier mask differs from the per-class mask");
        assert_eq!(mask[t as usize / 32] >> (t % 32) & 1, 1, "{what}: step {step}: token {} not allowed", tokenizer.vocab().token_name(t));
        if step % verify_every == 0 {
            assert_eq!(oracle::verify(&mut m).unwrap(), Ok(()), "{what}: step {step}: fast mask differs from the reference");
        }
        m.commit(t).unwrap();
    }
    assert!(m.is_terminated());
}
