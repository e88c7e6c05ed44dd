//! Hostile and pathological inputs: each must give `Ok` or a clear error quickly — no
//! panic, no hang, bounded memory — and a call that fails leaves nothing half-built.
//!
//! Sections: every resource limit enforced (`docs/robustness.md` lists them); deep
//! nesting (run on a small thread stack, so that recursion per nesting level would crash
//! the test); huge enums; exponential ambiguity; large counted repetitions; useless,
//! cyclic and empty grammars; tokens that are fragments of UTF-8; misuse of the matcher
//! API (rollback past the start, masks after EOS, bad token ids, bad buffer sizes).

use stackmask::classifier::{ClassifierConfig, StackClassifier};
use stackmask::frontend::LarkOptions;
use stackmask::glr::GlrConfig;
use stackmask::ir::GrammarLimits;
use stackmask::lexer::{Lexer, LexerConfig};
use stackmask::lr::{LrConfig, LrTables};
use stackmask::matcher::{oracle, CompileConfig, Recognizer};
use stackmask::tokenizer::{Tokenizer, Vocabulary};
use stackmask::{CompiledGrammar, Error, Grammar, LimitKind, Matcher};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn compile(text: &str) -> stackmask::Result<CompiledGrammar> {
    CompiledGrammar::new(&Grammar::from_lark(text)?)
}

fn compile_with(text: &str, config: &CompileConfig) -> stackmask::Result<CompiledGrammar> {
    CompiledGrammar::with_config(&Grammar::from_lark(text)?, config)
}

fn json() -> Arc<CompiledGrammar> {
    static JSON: OnceLock<Arc<CompiledGrammar>> = OnceLock::new();
    Arc::clone(JSON.get_or_init(|| Arc::new(compile(stackmask::DEFAULT_GRAMMAR).unwrap())))
}

/// A vocabulary of the given tokens followed by an EOS token.
fn vocab(tokens: &[&[u8]]) -> Arc<Vocabulary> {
    let eos = tokens.len() as u32;
    Arc::new(Vocabulary::from_token_bytes(tokens.iter().map(|t| t.to_vec()).collect(), Some(eos)))
}

/// The limit an error reports, or a panic naming the error.
fn limit_of<T: std::fmt::Debug>(result: stackmask::Result<T>) -> (LimitKind, usize, usize) {
    match result {
        Err(Error::Limit { kind, value, limit }) => {
            let time = matches!(kind, LimitKind::CompileTime | LimitKind::TotalCompileTime | LimitKind::EagerBuildTime);
            assert!(value > limit || time, "{kind}: {value} is within {limit}");
            (kind, value, limit)
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
}

/// Run `f` on a thread with a small stack: recursion as deep as the input would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(512 << 10).spawn(f).unwrap().join().unwrap();
}

fn assert_rejected(result: stackmask::Result<()>, at: usize) {
    match result {
        Err(Error::Rejected { offset, .. }) => assert_eq!(offset, at),
        other => panic!("expected a rejection at byte {at}, got {other:?}"),
    }
}

fn assert_mask_matches_oracle(m: &mut Matcher) {
    assert_eq!(oracle::verify(m).unwrap(), Ok(()), "fast mask differs from the reference");
}

fn mask_of(m: &mut Matcher) -> Vec<u32> {
    let mut mask = vec![0u32; m.mask_words()];
    m.compute_mask(&mut mask).unwrap();
    mask
}

fn allows(mask: &[u32], token: u32) -> bool {
    mask[token as usize / 32] >> (token % 32) & 1 == 1
}

// ---------------------------------------------------------------------------------------
// Every limit is enforced, with a typed error, and a failed call changes nothing.

#[test]
fn grammar_text_size_is_limited_before_parsing() {
    let text = format!("start: \"a\"\n{}", "// padding\n".repeat(100));
    let options = LarkOptions { max_grammar_bytes: 100, ..LarkOptions::default() };
    let (kind, value, limit) = limit_of(Grammar::from_lark_with(&text, &options));
    assert_eq!((kind, value, limit), (LimitKind::GrammarBytes, text.len(), 100));
    assert!(Grammar::from_lark(&text).is_ok(), "the default limit allows it");
    let huge = "x".repeat(LarkOptions::default().max_grammar_bytes + 1);
    assert_eq!(limit_of(Grammar::from_lark(&huge)).0, LimitKind::GrammarBytes);
}

#[test]
fn productions_are_limited() {
    let options = LarkOptions { limits: GrammarLimits { max_productions: 10 }, ..LarkOptions::default() };
    let text = r#"start: "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" | "j" | "k" | "l""#;
    assert_eq!(limit_of(Grammar::from_lark_with(text, &options)).0, LimitKind::Productions);
    // A bounded repetition as wide as a million is refused, not expanded.
    assert_eq!(limit_of(Grammar::from_lark(r#"start: "a"~0..1000000"#)).0, LimitKind::Productions);
}

#[test]
fn lexer_states_are_limited() {
    let g = Grammar::from_lark("start: /[a-z]{1,500}/").unwrap();
    let config =
        CompileConfig { lexer: LexerConfig { max_states: 100, ..LexerConfig::default() }, ..Default::default() };
    let (kind, value, limit) = limit_of(CompiledGrammar::with_config(&g, &config));
    assert_eq!((kind, value, limit), (LimitKind::LexerStates, 101, 100));
    assert!(CompiledGrammar::new(&g).is_ok(), "the default limit allows it");
}

#[test]
fn lr_states_are_limited() {
    let g = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap();
    let config = CompileConfig { lr: LrConfig { max_states: 5, ..LrConfig::default() }, ..Default::default() };
    assert_eq!(limit_of(CompiledGrammar::with_config(&g, &config)), (LimitKind::LrStates, 6, 5));
}

#[test]
fn compile_time_is_limited_inside_each_stage() {
    let g = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap();
    let spent = Some(Duration::ZERO);
    let lexer = LexerConfig { time_budget: spent, ..LexerConfig::default() };
    assert_eq!(limit_of(Lexer::new(&g, &lexer)).0, LimitKind::CompileTime);
    let lr = LrConfig { time_budget: spent, ..LrConfig::default() };
    assert_eq!(limit_of(LrTables::new(&g, &lr)).0, LimitKind::CompileTime);
    let config = CompileConfig { lr, ..Default::default() };
    assert_eq!(limit_of(CompiledGrammar::with_config(&g, &config)).0, LimitKind::CompileTime);
    let unlimited = CompileConfig {
        time_budget: None,
        lexer: LexerConfig { time_budget: None, ..LexerConfig::default() },
        lr: LrConfig { time_budget: None, ..LrConfig::default() },
        ..Default::default()
    };
    assert!(CompiledGrammar::with_config(&g, &unlimited).is_ok());
}

#[test]
fn total_compile_time_is_limited_across_the_stages() {
    let g = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap();
    let no_stage_budget = CompileConfig {
        lexer: LexerConfig { time_budget: None, ..LexerConfig::default() },
        lr: LrConfig { time_budget: None, ..LrConfig::default() },
        ..Default::default()
    };
    let spent = CompileConfig { time_budget: Some(Duration::ZERO), ..no_stage_budget.clone() };
    let (kind, _, limit) = limit_of(CompiledGrammar::with_config(&g, &spent));
    assert_eq!((kind, limit), (LimitKind::TotalCompileTime, 0));
    let err = CompiledGrammar::with_config(&g, &spent).unwrap_err();
    assert!(err.to_string().starts_with("limit exceeded: total compile time in milliseconds would reach"), "{err}");
    // Within a total budget, a stage's own budget still applies, and says so.
    let lr_spent = CompileConfig { lr: LrConfig { time_budget: Some(Duration::ZERO), ..LrConfig::default() }, ..no_stage_budget };
    assert_eq!(limit_of(CompiledGrammar::with_config(&g, &lr_spent)).0, LimitKind::CompileTime);
}

#[test]
fn eager_classifier_build_time_is_limited_and_the_classifier_stays_exact() {
    let tokenizer = Tokenizer::embedded_default().unwrap();
    let config = ClassifierConfig { eager_time_budget: Some(Duration::ZERO), ..ClassifierConfig::default() };
    let classifier = Arc::new(StackClassifier::with_config(json(), tokenizer.vocab_arc(), config));
    let (kind, _, limit) = limit_of(classifier.build_eager());
    assert_eq!((kind, limit), (LimitKind::EagerBuildTime, 0));
    let mut m = Matcher::with_classifier(classifier);
    m.commit_bytes(b"{\"a\": [1, ").unwrap();
    assert_mask_matches_oracle(&mut m);
}

#[test]
fn eager_classifier_build_memory_is_limited_and_the_classifier_stays_exact() {
    let tokenizer = Tokenizer::embedded_default().unwrap();
    let config = ClassifierConfig { cache_capacity: 1, ..ClassifierConfig::default() };
    let classifier = Arc::new(StackClassifier::with_config(json(), tokenizer.vocab_arc(), config));
    let (kind, value, limit) = limit_of(classifier.build_eager());
    assert_eq!((kind, limit), (LimitKind::EagerBuildMemory, 1));
    assert!(value > 1 && value <= classifier.stats().bytes, "the bytes built when it stopped: {value}");
    let err = classifier.build_eager().unwrap_err();
    assert!(err.to_string().starts_with("limit exceeded: classifier cache bytes filled by its eager build would reach"), "{err}");
    let mut m = Matcher::with_classifier(classifier);
    m.commit_bytes(b"{\"a\": [1, ").unwrap();
    assert_mask_matches_oracle(&mut m);
}

#[test]
fn compile_time_error_reports_milliseconds() {
    let g = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap();
    let lr = LrConfig { time_budget: Some(Duration::ZERO), ..LrConfig::default() };
    let err = LrTables::new(&g, &lr).unwrap_err();
    assert!(err.to_string().starts_with("limit exceeded: compile time in milliseconds would reach"), "{err}");
}

/// `start: s; s: s s | "a"` packs its exponentially many parses, but its reductions
/// still visit more edges at every step.
const AMBIGUOUS: &str = "start: s\ns: s s | \"a\"";

#[test]
fn gss_nodes_per_step_are_limited_and_a_failed_commit_changes_nothing() {
    let config =
        CompileConfig { glr: GlrConfig { max_nodes_per_step: 2, ..GlrConfig::default() }, ..Default::default() };
    let mut m = Matcher::new(Arc::new(compile_with(AMBIGUOUS, &config).unwrap()), vocab(&[b"a", b"aaaa"]));
    m.commit(0).unwrap();
    let before = (m.committed_steps(), m.committed_bytes(), m.recognizer().parser().node_count());
    let error = m.commit(1).unwrap_err();
    assert_eq!(limit_of::<()>(Err(error)), (LimitKind::GssNodesPerStep, 3, 2));
    assert_eq!((m.committed_steps(), m.committed_bytes(), m.recognizer().parser().node_count()), before);
}

#[test]
fn gss_work_per_step_is_limited_and_a_failed_feed_changes_nothing() {
    let config =
        CompileConfig { glr: GlrConfig { max_work_per_step: 20_000, ..GlrConfig::default() }, ..Default::default() };
    let mut r = Recognizer::new(Arc::new(compile_with(AMBIGUOUS, &config).unwrap()));
    let error = loop {
        let (offset, nodes) = (r.offset(), r.parser().node_count());
        if let Err(e) = r.feed(b"a") {
            assert_eq!((r.offset(), r.parser().node_count()), (offset, nodes));
            break e;
        }
        assert!(r.offset() < 10_000, "the work per step never reached the limit");
    };
    let (kind, _, limit) = limit_of::<()>(Err(error));
    assert_eq!((kind, limit), (LimitKind::GssWorkPerStep, 20_000));
    assert!(r.offset() > 10, "a short ambiguous text is within the limit");
}

// ---------------------------------------------------------------------------------------
// Deep nesting: nothing recurses per nesting level.

const DEPTH: usize = 10_000;

#[test]
fn json_nested_10000_levels_is_recognized() {
    on_small_stack(|| {
        let mut r = Recognizer::new(json());
        r.feed("[".repeat(DEPTH).as_bytes()).unwrap();
        assert!(!r.is_complete().unwrap());
        r.feed("]".repeat(DEPTH).as_bytes()).unwrap();
        assert!(r.is_complete().unwrap());
        assert_rejected(r.feed(b"]"), 2 * DEPTH);

        let mut r = Recognizer::new(json());
        let text = format!("{}1{}", "{\"a\": ".repeat(DEPTH), "}".repeat(DEPTH));
        r.feed(text.as_bytes()).unwrap();
        assert!(r.is_complete().unwrap());
    });
}

#[test]
fn json_nested_10000_levels_in_a_matcher_with_rollback() {
    on_small_stack(|| {
        let tokens: [&[u8]; 5] = [b"[", b"]", b"{", b"\"a\":", b"1"];
        let mut m = Matcher::new(json(), vocab(&tokens));
        let at_start = mask_of(&mut m);
        for _ in 0..DEPTH {
            m.commit(0).unwrap();
        }
        assert_mask_matches_oracle(&mut m);
        let deep = mask_of(&mut m);
        assert!(allows(&deep, 1) && !allows(&deep, 5), "`]` allowed, EOS not");
        for _ in 0..DEPTH {
            m.commit(1).unwrap();
        }
        assert!(allows(&mask_of(&mut m), 5), "EOS allowed once every bracket is closed");
        m.rollback(2 * DEPTH).unwrap();
        assert_eq!((m.committed_bytes(), mask_of(&mut m)), (0, at_start));
    });
}

#[test]
fn json_nested_10000_levels_mask_with_the_embedded_tokenizer() {
    let tokenizer = Tokenizer::embedded_default().unwrap();
    let close = tokenizer.encode("]").unwrap()[0];
    let brace = tokenizer.encode("}").unwrap()[0];
    on_small_stack(move || {
        let mut m = Matcher::new(json(), tokenizer.vocab_arc());
        m.commit_bytes("[".repeat(DEPTH).as_bytes()).unwrap();
        let mask = mask_of(&mut m);
        assert!(allows(&mask, close) && !allows(&mask, brace));
    });
}

// ---------------------------------------------------------------------------------------
// Very long tokens: nothing recurses per byte of a token (the trie walks of the mask and
// of the spanner keep their own stacks), so they run on a 256 KiB thread stack.

/// Run `f` on a thread with a 256 KiB stack, a few hundred frames: recursion per byte of
/// a 20,000-byte token would overflow it.
fn on_tiny_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 << 10).spawn(f).unwrap().join().unwrap();
}

/// The mask of the trie walk, of the per-class path and of the stack classifier (lazy,
/// then eagerly built), each checked against the reference mask; the reference mask.
fn masks_agree(compiled: &Arc<CompiledGrammar>, vocab: &Arc<Vocabulary>, prefix: &[u8]) -> Vec<u32> {
    let classifier = Arc::new(StackClassifier::new(Arc::clone(compiled), Arc::clone(vocab)));
    let mut by_classifier = Matcher::with_classifier(Arc::clone(&classifier));
    by_classifier.commit_bytes(prefix).unwrap();
    let reference = oracle::reference_mask(&by_classifier).unwrap();
    assert_eq!(mask_of(&mut by_classifier), reference, "classifier mask (lazy)");
    classifier.build_eager().unwrap();
    assert_eq!(mask_of(&mut by_classifier), reference, "classifier mask (eager)");
    let mut by_classes = vec![0u32; reference.len()];
    by_classifier.compute_mask_by_classes(classifier.spanner(), &mut by_classes).unwrap();
    assert_eq!(by_classes, reference, "per-class mask");
    let mut by_trie = Matcher::new(Arc::clone(compiled), Arc::clone(vocab));
    by_trie.commit_bytes(prefix).unwrap();
    assert_eq!(mask_of(&mut by_trie), reference, "trie mask");
    reference
}

const LONG: usize = 20_000;

#[test]
fn tokens_of_20000_bytes_in_a_regex_terminal() {
    on_tiny_stack(|| {
        let compiled = Arc::new(compile("start: /a+/ \"b\"").unwrap());
        let a_run = "a".repeat(LONG);
        let tokens = [
            a_run.clone(),                  // 0: a valid prefix
            format!("{a_run}b"),            // 1: a whole sentence
            format!("{}c", "a".repeat(LONG - 1)), // 2: dies at its last byte
            format!("{a_run}bb"),           // 3: dies after the sentence
            "x".repeat(LONG),               // 4: dies at its first byte
            "a".repeat(LONG - 1),           // 5: a prefix of token 0, sharing its trie path
            "a".to_string(),
            "b".to_string(),
        ];
        let vocab = vocab(&tokens.iter().map(|t| t.as_bytes()).collect::<Vec<_>>());
        let allowed = |mask: &[u32]| (0..=8).filter(|&t| allows(mask, t)).collect::<Vec<_>>();
        assert_eq!(allowed(&masks_agree(&compiled, &vocab, b"")), [0, 1, 5, 6]);
        assert_eq!(allowed(&masks_agree(&compiled, &vocab, b"aaa")), [0, 1, 5, 6, 7]);
        assert_eq!(allowed(&masks_agree(&compiled, &vocab, b"ab")), [8], "only EOS after the sentence");
    });
}

#[test]
fn tokens_of_20000_bytes_in_json() {
    on_tiny_stack(|| {
        let tokens = [
            format!("\"{}\"", "x".repeat(LONG)),   // 0: one string
            format!("1{}", ",1".repeat(LONG / 2)), // 1: 10,001 numbers, 20,001 lexemes
            format!("1{}]", ",1".repeat(LONG / 2)), // 2: ... and the end of the array
            format!("1{},,", ",1".repeat(LONG / 2)), // 3: dies at its last byte
            "x".repeat(LONG),                     // 4: dies at its first byte
            "[".to_string(),
            "\"".to_string(),
        ];
        let vocab = vocab(&tokens.iter().map(|t| t.as_bytes()).collect::<Vec<_>>());
        let allowed = |mask: &[u32]| (0..=7).filter(|&t| allows(mask, t)).collect::<Vec<_>>();
        assert_eq!(allowed(&masks_agree(&json(), &vocab, b"")), [0, 5, 6]);
        assert_eq!(allowed(&masks_agree(&json(), &vocab, b"[")), [0, 1, 2, 5, 6]);
        assert_eq!(allowed(&masks_agree(&json(), &vocab, b"[\"")), [1, 2, 3, 4, 5, 6], "inside a string");
    });
}

#[test]
fn a_token_of_one_mebibyte() {
    on_tiny_stack(|| {
        let compiled = Arc::new(compile("start: /a+/ \"b\"").unwrap());
        let huge = "a".repeat(1 << 20);
        let vocab = vocab(&[huge.as_bytes(), format!("{huge}b").as_bytes(), b"b"]);
        assert_eq!(masks_agree(&compiled, &vocab, b"a"), [0b0111]);
    });
}

// ---------------------------------------------------------------------------------------
// Huge enums.

fn enum_words(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("\"w{i}\"")).collect()
}

#[test]
fn enum_of_10000_strings_as_rule_alternatives() {
    let compiled = Arc::new(compile(&format!("start: {}", enum_words(10_000).join(" | "))).unwrap());
    let mut r = Recognizer::new(Arc::clone(&compiled));
    r.feed(b"w9999").unwrap();
    assert!(r.is_complete().unwrap());
    let mut r = Recognizer::new(compiled);
    assert_rejected(r.feed(b"w10000"), 5);
}

#[test]
fn enum_of_10000_strings_as_one_terminal() {
    let compiled = Arc::new(compile(&format!("start: WORD\nWORD: {}", enum_words(10_000).join(" | "))).unwrap());
    let mut m = Matcher::new(compiled, vocab(&[b"w", b"9", b"99", b"w1", b"x"]));
    for token in [0, 2, 2] {
        m.commit(token).unwrap();
    }
    assert_mask_matches_oracle(&mut m);
    assert!(m.is_accepting().unwrap(), "w9999");
    assert!(m.commit(1).is_err(), "w99999 is not in the enum");
}

// ---------------------------------------------------------------------------------------
// Exponential ambiguity: parses are packed, masks stay exact.

fn check_ambiguous(grammar: &str, unit: &[u8], complete_when_empty: bool) {
    let compiled = Arc::new(compile(grammar).unwrap());
    let mut m = Matcher::new(compiled, vocab(&[unit, b"y"]));
    assert_eq!(m.is_accepting().unwrap(), complete_when_empty);
    for step in 1..=60 {
        m.commit(0).unwrap();
        if step % 20 == 0 {
            assert_mask_matches_oracle(&mut m);
            assert!(m.is_accepting().unwrap());
        }
    }
    assert!(m.commit(1).is_err());
}

#[test]
fn exponentially_ambiguous_binary_grammar() {
    check_ambiguous(AMBIGUOUS, b"a", false);
}

#[test]
fn exponentially_ambiguous_ternary_grammar_with_epsilon() {
    check_ambiguous("start: e\ne: e e e | \"x\" |", b"x", true);
}

// ---------------------------------------------------------------------------------------
// Large counted repetitions: built when small enough, a clear error otherwise.

#[test]
fn counted_repetition_of_1000_is_exact() {
    let mut r = Recognizer::new(Arc::new(compile("start: /a{1000}/").unwrap()));
    r.feed("a".repeat(999).as_bytes()).unwrap();
    assert!(!r.is_complete().unwrap());
    r.feed(b"a").unwrap();
    assert!(r.is_complete().unwrap());
    assert_rejected(r.feed(b"a"), 1000);
}

#[test]
fn nested_counted_repetitions_are_refused_as_too_large() {
    for regex in ["/(a{1000}){1000}/", "/((a{100}){100}){100}/", r"/\w{1000}/"] {
        match compile(&format!("start: {regex}")) {
            Err(Error::Terminal { reason, .. }) => assert!(reason.contains("too large"), "{regex}: {reason}"),
            other => panic!("{regex}: {:?}", other.map(|c| c.lexer().state_count())),
        }
    }
}

#[test]
fn wide_counted_repetition_is_built_or_limited() {
    let compiled = compile("start: /[a-z]{1,65535}/").unwrap();
    assert_eq!(compiled.lexer().state_count(), 65_537);
    let config =
        CompileConfig { lexer: LexerConfig { max_states: 10_000, ..LexerConfig::default() }, ..Default::default() };
    assert_eq!(limit_of(compile_with("start: /[a-z]{1,65535}/", &config)).0, LimitKind::LexerStates);
}

#[test]
fn counted_repetition_in_a_rule() {
    let mut r = Recognizer::new(Arc::new(compile("start: \"a\"~1000 \"b\"").unwrap()));
    r.feed("a".repeat(1000).as_bytes()).unwrap();
    assert_rejected(r.feed(b"a"), 1000);
    r.feed(b"b").unwrap();
    assert!(r.is_complete().unwrap());
}

// ---------------------------------------------------------------------------------------
// Useless, recursive, cyclic and empty grammars.

#[test]
fn unreachable_and_unproductive_rules_are_dropped() {
    let compiled = Arc::new(compile("start: \"a\" | dead\ndead: dead \"x\"\nunused: \"b\"").unwrap());
    let mut r = Recognizer::new(Arc::clone(&compiled));
    r.feed(b"a").unwrap();
    assert!(r.is_complete().unwrap());
    for text in [&b"x"[..], b"b"] {
        assert_rejected(Recognizer::new(Arc::clone(&compiled)).feed(text), 0);
    }
}

#[test]
fn epsilon_cycle_grammar() {
    let compiled = Arc::new(compile("start: a\na: a | \"x\" |").unwrap());
    let mut m = Matcher::new(compiled, vocab(&[b"x"]));
    assert!(m.is_accepting().unwrap(), "the empty text");
    assert_mask_matches_oracle(&mut m);
    m.commit(0).unwrap();
    assert!(m.is_accepting().unwrap());
    assert_mask_matches_oracle(&mut m);
    assert!(m.commit(0).is_err(), "xx");
}

#[test]
fn left_recursion_over_a_long_text() {
    let mut r = Recognizer::new(Arc::new(compile("start: l\nl: l \"x\" | \"x\"").unwrap()));
    r.feed("x".repeat(100_000).as_bytes()).unwrap();
    assert!(r.is_complete().unwrap());
}

#[test]
fn right_recursion_is_recognized_or_limited() {
    let compiled = Arc::new(compile("start: r\nr: \"x\" r | \"x\"").unwrap());
    let mut r = Recognizer::new(Arc::clone(&compiled));
    r.feed("x".repeat(200).as_bytes()).unwrap();
    assert!(r.is_complete().unwrap());
    // Feeding asks the parser only about the pending lexeme's terminal, which shifts
    // without reducing; asking whether the input may end reduces the whole
    // right-recursive chain, and past a few hundred elements the default work limit
    // stops it (see docs/robustness.md).
    let mut r = Recognizer::new(compiled);
    r.feed("x".repeat(5_000).as_bytes()).unwrap();
    assert_eq!(limit_of(r.is_complete()).0, LimitKind::GssWorkPerStep);
}

#[test]
fn long_chain_of_rules_compiles() {
    let rules: String = (0..5_000).map(|i| format!("r{i}: r{} \"x\"\n", i + 1)).collect();
    let mut r = Recognizer::new(Arc::new(compile(&format!("start: r0\n{rules}r5000: \"y\"")).unwrap()));
    r.feed(format!("y{}", "x".repeat(5_000)).as_bytes()).unwrap();
    assert!(r.is_complete().unwrap());
}

#[test]
fn empty_language_is_an_error() {
    for text in ["start: start \"x\"", "start: a\na: b\nb: a"] {
        assert!(matches!(Grammar::from_lark(text), Err(Error::EmptyLanguage { .. })), "{text}");
    }
}

// ---------------------------------------------------------------------------------------
// Tokens that are fragments of UTF-8.

/// Fragments of "é" (C3 A9), "€" (E2 82 AC), "😀" (F0 9F 98 80), and invalid sequences:
/// a byte never in UTF-8, an overlong encoding, a surrogate.
const FRAGMENTS: [&[u8]; 12] = [
    b"\"",
    b"\xC3",
    b"\xA9",
    b"\xE2",
    b"\x82\xAC",
    b"\xF0\x9F",
    b"\x98",
    b"\x80",
    b"\xFF",
    b"\xC0\x80",
    b"\xED\xA0\x80",
    b"\xC3\"",
];

#[test]
fn utf8_fragments_combine_into_characters() {
    let mut m = Matcher::new(json(), vocab(&FRAGMENTS));
    for token in [0, 1, 2, 3, 4, 5, 6, 7, 0] {
        assert_mask_matches_oracle(&mut m);
        assert!(allows(&mask_of(&mut m), token), "token {token} after {} bytes", m.committed_bytes());
        m.commit(token).unwrap();
    }
    assert!(m.is_accepting().unwrap(), "\"é€😀\"");
}

#[test]
fn invalid_utf8_is_never_allowed() {
    let mut m = Matcher::new(json(), vocab(&FRAGMENTS));
    m.commit(0).unwrap();
    let inside_string = mask_of(&mut m);
    for lone_or_invalid in [2, 4, 6, 7, 8, 9, 10, 11] {
        assert!(!allows(&inside_string, lone_or_invalid), "token {lone_or_invalid}");
        assert!(m.commit(lone_or_invalid).is_err());
    }
    m.commit(1).unwrap(); // C3: a character has begun
    let mid_character = mask_of(&mut m);
    assert_mask_matches_oracle(&mut m);
    assert!(!allows(&mid_character, 0) && !allows(&mid_character, 4), "quote or C3 82 AC");
    assert!(allows(&mid_character, 2) && allows(&mid_character, 7), "any continuation byte");
    assert_eq!(m.committed_bytes(), 2);
}

// ---------------------------------------------------------------------------------------
// Misuse of the matcher API.

fn small_matcher() -> Matcher {
    Matcher::new(json(), vocab(&[b"[", b"]", b"1"]))
}

#[test]
fn rollback_past_the_start_is_refused_and_changes_nothing() {
    let mut m = small_matcher();
    assert!(matches!(m.rollback(1), Err(Error::Rollback { requested: 1, available: 0 })));
    m.commit(0).unwrap();
    m.commit(2).unwrap();
    let before = mask_of(&mut m);
    for n in [3, usize::MAX] {
        assert!(matches!(m.rollback(n), Err(Error::Rollback { available: 2, .. })));
        assert_eq!((m.committed_steps(), m.committed_bytes(), mask_of(&mut m)), (2, 2, before.clone()));
    }
    m.rollback(0).unwrap();
    m.rollback(2).unwrap();
    assert_eq!(m.committed_bytes(), 0);
    assert!(m.rollback(1).is_err());
}

#[test]
fn after_eos_the_mask_is_empty_and_commits_are_refused() {
    let mut m = small_matcher();
    let eos = 3;
    m.commit(2).unwrap();
    m.commit(eos).unwrap();
    assert!(m.is_terminated() && !m.is_accepting().unwrap());
    assert!(mask_of(&mut m).iter().all(|&w| w == 0));
    assert_mask_matches_oracle(&mut m);
    assert!(matches!(m.commit(0), Err(Error::Rejected { .. })));
    assert!(matches!(m.commit(eos), Err(Error::Rejected { .. })));
    assert!(matches!(m.commit_bytes(b" "), Err(Error::Rejected { .. })));
    m.rollback(1).unwrap();
    assert!(!m.is_terminated() && allows(&mask_of(&mut m), eos));
}

#[test]
fn eos_before_the_text_is_complete_is_refused() {
    let mut m = small_matcher();
    m.commit(0).unwrap();
    assert!(matches!(m.commit(3), Err(Error::Rejected { .. })));
    assert!(!m.is_terminated());
}

#[test]
fn out_of_range_token_ids_are_refused() {
    let mut m = small_matcher();
    for id in [4, 5, u32::MAX] {
        assert!(matches!(m.commit(id), Err(Error::TokenOutOfRange { vocab_size: 4, .. })), "{id}");
    }
    assert_eq!(m.committed_steps(), 0);
}

#[test]
fn special_tokens_that_are_not_eos_are_refused() {
    let tokens = vec![b"1".to_vec(), Vec::new(), Vec::new()];
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, Some(5)));
    let mut m = Matcher::new(json(), vocab);
    assert!(vocab_is_special(&m, 3));
    assert!(matches!(m.commit(3), Err(Error::Rejected { .. })));
    assert_mask_matches_oracle(&mut m);
}

fn vocab_is_special(m: &Matcher, id: u32) -> bool {
    m.vocab().is_special(id)
}

#[test]
fn wrong_mask_buffer_sizes_are_refused() {
    let mut m = Matcher::new(json(), Tokenizer::embedded_default().unwrap().vocab_arc());
    let need = m.mask_words();
    for got in [0, need - 1, need + 1] {
        let mut mask = vec![u32::MAX; got];
        assert!(matches!(m.compute_mask(&mut mask), Err(Error::MaskSize { .. })), "{got} words");
        assert!(mask.iter().all(|&w| w == u32::MAX), "nothing written");
    }
}
