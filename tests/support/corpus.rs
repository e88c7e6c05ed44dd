//! Running texts through the whole pipeline: the `../shared` folder (tokenizers,
//! benchmark grammars and corpora), and teacher-forcing a text with mask checks.

use stackmask::classifier::StackClassifier;
use stackmask::matcher::oracle;
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar, Matcher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The repository's root folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Panics unless the text of every one of `files` is a complete sentence of `compiled`,
/// naming the file and where it was rejected.
pub fn assert_files_accepted(compiled: &Arc<CompiledGrammar>, files: &[PathBuf]) {
    for file in files {
        let text = std::fs::read(file).unwrap();
        let mut r = stackmask::matcher::Recognizer::new(Arc::clone(compiled));
        r.feed(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(r.is_complete().unwrap(), "{}: not a complete sentence", file.display());
    }
}

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

/// Teacher-force the text of `file` with `shared`'s Llama 3 tokenizer through `compiled`,
/// checking the reference mask every `verify_every` steps (see [`teacher_force`]).
pub fn teacher_force_file_with_llama3(compiled: Arc<CompiledGrammar>, shared: &Path, file: &Path, verify_every: usize) {
    let tokenizer = Tokenizer::from_file(shared.join("tokenizers/llama3.tokenizer.json.gz")).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    teacher_force(compiled, &tokenizer, &text, verify_every, &format!("llama3 {}", file.display()));
}

/// Feed `text` to `compiled` byte by byte; whether the parser held several stacks after
/// some byte (a lexeme is shifted when the byte after it arrives). Panics unless `text`
/// is a sentence.
pub fn forks_on(compiled: &Arc<CompiledGrammar>, text: &str) -> bool {
    let mut r = stackmask::matcher::Recognizer::new(Arc::clone(compiled));
    let mut forked = false;
    for (offset, byte) in text.bytes().enumerate() {
        r.feed(&[byte]).unwrap_or_else(|e| panic!("{text:?} at {offset}: {e}"));
        forked |= holds_several_stacks(r.parser());
    }
    assert!(r.is_complete().unwrap(), "{text:?} is not a sentence");
    forked
}

/// Whether the parser holds more than one stack: several heads, or a node that two
/// stacks share (it has two parents).
pub fn holds_several_stacks(parser: &stackmask::glr::Parser) -> bool {
    let mut todo: Vec<stackmask::glr::NodeId> = parser.heads().collect();
    if todo.len() > 1 {
        return true;
    }
    let mut seen = std::collections::HashSet::new();
    while let Some(node) = todo.pop() {
        if seen.insert(node) {
            let parents: Vec<stackmask::glr::NodeId> = parser.node_parents(node).collect();
            if parents.len() > 1 {
                return true;
            }
            todo.extend(parents);
        }
    }
    false
}
