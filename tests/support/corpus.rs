//! Running texts through the whole pipeline: the `../shared` folder (tokenizers,
//! benchmark grammars and corpora), and teacher-forcing a text with mask checks.

use stackmask::classifier::StackClassifier;
use stackmask::matcher::oracle;
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar, Matcher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// `../shared` next to the repository, or `None` (printing `SKIPPED:`) when it is missing.
pub fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("SKIPPED: ../shared not found");
        None
    }
}

/// Compile the Lark grammar in file `path`.
pub fn compile_file(path: &Path) -> stackmask::Result<CompiledGrammar> {
    let text = std::fs::read_to_string(path).unwrap();
    CompiledGrammar::new(&Grammar::from_lark(&text)?)
}

/// The files of `dir` whose name ends with `.ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
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

/// The Llama 3, Qwen3 and Gemma 3 tokenizers of `shared`, by name, loaded once.
pub fn tokenizers(shared: &Path) -> &'static [(String, Tokenizer)] {
    static CACHE: OnceLock<Vec<(String, Tokenizer)>> = OnceLock::new();
    CACHE.get_or_init(|| {
        ["llama3", "qwen3", "gemma3"]
            .iter()
            .map(|n| (n.to_string(), Tokenizer::from_file(shared.join(format!("tokenizers/{n}.tokenizer.json.gz"))).unwrap()))
            .collect()
    })
}

/// Teacher-force `text`: at every step the stack classifier's mask allows the true token
/// and equals the per-class mask, and at every `verify_every`-th step it equals the
/// token-by-token reference mask. One classifier per call; [`teacher_force_with`] shares one.
pub fn teacher_force(compiled: Arc<CompiledGrammar>, tokenizer: &Tokenizer, text: &str, verify_every: usize, what: &str) {
    let classifier = Arc::new(StackClassifier::new(compiled, tokenizer.vocab_arc()));
    teacher_force_with(&classifier, tokenizer, text, |step| step % verify_every == 0, what);
}

/// [`teacher_force`] with a classifier shared across texts (its lazily built states
/// carry over, as in a server; it must be built for `tokenizer`'s vocabulary), comparing
/// with the reference mask at the steps `verify_at` selects (the reference feeds every
/// token of the vocabulary: tens of milliseconds a step).
pub fn teacher_force_with(
    classifier: &Arc<StackClassifier>,
    tokenizer: &Tokenizer,
    text: &str,
    verify_at: impl Fn(usize) -> bool,
    what: &str,
) {
    let tokens = tokenizer.encode(text).unwrap();
    let spanner = Arc::clone(classifier.spanner());
    let mut m = Matcher::with_classifier(Arc::clone(classifier));
    let mut mask = vec![0u32; m.mask_words()];
    let mut by_classes = mask.clone();
    let eos = tokenizer.vocab().eos_tokens()[0];
    for (step, &t) in tokens.iter().chain(std::iter::once(&eos)).enumerate() {
        m.compute_mask(&mut mask).unwrap();
        m.compute_mask_by_classes(&spanner, &mut by_classes).unwrap();
        assert!(mask == by_classes, "{what}: step {step}: classifier mask differs from the per-class mask");
        assert_eq!(mask[t as usize / 32] >> (t % 32) & 1, 1, "{what}: step {step}: token {} not allowed", tokenizer.vocab().token_name(t));
        if verify_at(step) {
            assert_eq!(oracle::verify(&mut m).unwrap(), Ok(()), "{what}: step {step}: fast mask differs from the reference");
        }
        m.commit(t).unwrap();
    }
    assert!(m.is_terminated());
}
