//! `grammars/java.lark`: it compiles, accepts the hand-written modern Java corpus
//! (`tests/corpora/java_modern/`: generics with `>>`/`>>>` closers, annotations, lambdas,
//! method references, records, switch expressions, text blocks, ...), accepts a sample of
//! the SynCode Java corpus, and one modern file teacher-forced with Llama 3 gets the
//! reference masks. Tests needing `../shared` print `SKIPPED:` when it is missing.

mod support;

use stackmask::matcher::Recognizer;
use stackmask::CompiledGrammar;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use support::corpus::{assert_files_accepted, compile_file, files_with_extension, root, shared, smallest, teacher_force_file_with_llama3};

fn java() -> Arc<CompiledGrammar> {
    static CACHE: OnceLock<Arc<CompiledGrammar>> = OnceLock::new();
    Arc::clone(CACHE.get_or_init(|| Arc::new(compile_file(&root().join("grammars/java.lark")).unwrap())))
}

fn modern_files() -> Vec<PathBuf> {
    files_with_extension(&root().join("tests/corpora/java_modern"), "java")
}

#[test]
fn java_grammar_compiles() {
    assert!(java().tables().state_count() > 500);
}

#[test]
fn modern_java_corpus_is_accepted() {
    let files = modern_files();
    assert!(files.len() >= 10, "{} files", files.len());
    assert_files_accepted(&java(), &files);
}

#[test]
fn nested_generic_closers_and_shifts() {
    let good = "class A { Map<K, List<V>> a; A<B<C<D>>> b; A<B<C<D<E>>>> c; int x = (y >>> 3) << 1 >> 2; }";
    let mut r = Recognizer::new(java());
    r.feed(good.as_bytes()).unwrap();
    assert!(r.is_complete().unwrap());
    // One closer too many or too few.
    for bad in ["class A { List<String>> x; }", "class A { Map<K, List<V> x; }", "class A { A<B<C>>>> x; }"] {
        let mut r = Recognizer::new(java());
        assert!(r.feed(bad.as_bytes()).is_err() || !r.is_complete().unwrap(), "{bad}");
    }
}

#[test]
fn syncode_java_corpus_sample_is_accepted() {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED: syncode_java_corpus_sample_is_accepted needs ../shared");
        return;
    };
    assert_files_accepted(&java(), &smallest(&shared.join("bench/corpora/java"), 10));
}

#[test]
fn modern_file_token_by_token_with_llama3() {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED: modern_file_token_by_token_with_llama3 needs ../shared");
        return;
    };
    teacher_force_file_with_llama3(java(), &shared, &root().join("tests/corpora/java_modern/Generics.java"), 16);
}
