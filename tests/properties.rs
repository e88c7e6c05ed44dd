//! Property tests: the GLR recognizer, the matcher's fast mask and the LR tables, judged
//! against an independent Earley recognizer on generated and edited sentences.
//!
//! Every property draws a grammar (hand-written Lark grammars aimed at known hard spots,
//! or small random BNF grammars) and a seed; the seed drives the sentence generator and
//! the edits, so the grammar and seed printed with a failure replay it. Texts are judged
//! by how the project's lexer actually splits them (maximal munch), not by how they were
//! generated.
//!
//! * sentences, byte by byte: the recognizer accepts them, viable after every byte;
//! * sentences and edited ones, token by token: commit and EOS agree with the reference,
//!   fast mask = reference mask at every step, rollback restores an earlier mask;
//! * edited sentences: the recognizer agrees with the Earley-based reference definition
//!   (`support::reference`) on every prefix, and reports the first unviable byte;
//! * terminal level: the GLR parser over the LALR tables agrees with Earley on random
//!   lexeme sequences (survival, end of input, next terminals), on random grammars too;
//! * random grammars, byte level: the recognizer agrees with the reference;
//! * random grammars, token level: every mask path equals the reference mask;
//! * real tokenizers: generated JSON, encoded by Llama 3, Qwen3 and Gemma 3, commits;
//! * the cost of ambiguity stays polynomial (a timed test).

mod support;

use proptest::prelude::*;
use proptest::test_runner::TestRng;
use stackmask::glr::{GlrConfig, Parser};
use stackmask::ir::{Grammar, GrammarBuilder, Symbol, TerminalId, TerminalPattern, TerminalSet};
use stackmask::lr::{LrConfig, LrTables};
use stackmask::lexer::LexerConfig;
use stackmask::matcher::{oracle, CompileConfig, Recognizer};
use stackmask::classifier::{ClassifierConfig, StackClassifier};
use stackmask::tokenizer::{Tokenizer, Vocabulary};
use stackmask::{Error, Matcher};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};
use support::earley::Chart;
use support::{
    cubic_epsilon_fixture, lark_fixture, lark_fixtures, pick, random_grammar, rng_from_seed, split, Earley, Fixture,
    ReferenceRecognizer, Sentence,
};

// Cases per property, chosen to keep the whole file to some seconds on two cores in the
// test profile (`opt-level = 2`); the real-tokenizer property is dominated by loading.
const SENTENCE_CASES: u32 = 2000;
const TOKEN_CASES: u32 = 600;
const EDIT_CASES: u32 = 3000;
const RANDOM_GLR_CASES: u32 = 5000;
const LARK_GLR_CASES: u32 = 1000;
const RANDOM_TEXT_CASES: u32 = 1500;
const RANDOM_MASK_CASES: u32 = 800;
const REAL_TOKENIZER_CASES: u32 = 4;
const CONTEXT_CASES: u32 = 300;

/// Derivation depth budget of generated sentences.
const DEPTH: u32 = 10;
/// Soft cap on the terminals of a generated sentence (keeps Earley and the oracle fast).
const MAX_TERMINALS: usize = 40;
/// Bytes the edits may insert besides those of the text: separators, brackets, digits,
/// letters, a quote, a backslash, a control byte and a non-ASCII lead byte.
const EDIT_BYTES: &[u8] = b" \n()[]{},:;=+*-#019aehiltx\"\\\x01\xc3";

/// `cases` cases; failures are not persisted to a regressions file (the failure message
/// prints the grammar and the seed, which replay the case).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// A hand-written grammar, shown by name and BNF when a case fails.
fn any_lark_fixture() -> impl Strategy<Value = &'static Fixture> {
    prop::sample::select(lark_fixtures().iter().collect::<Vec<_>>())
}

/// A stackmask error as a test failure.
fn ok<T>(result: stackmask::Result<T>) -> Result<T, TestCaseError> {
    result.map_err(|e| TestCaseError::fail(format!("unexpected error: {e}")))
}

/// `text` quoted, with non-printable and non-ASCII bytes escaped.
fn show(text: &[u8]) -> String {
    format!("\"{}\"", text.escape_ascii())
}

/// A generated sentence of a hand-written grammar (all of them have sentences).
fn generate_sentence(f: &Fixture, rng: &mut TestRng) -> Sentence {
    f.generator.sentence(rng, DEPTH, MAX_TERMINALS).expect("hand-written grammars have sentences")
}

/// Whether Earley accepts the text as the lexer splits it.
fn earley_accepts_text(f: &Fixture, text: &[u8]) -> bool {
    split(&f.lexer, text).is_some_and(|lexemes| f.earley.accepts(&lexemes))
}

/// A generated sentence must be a sentence for Earley whenever the lexer splits it into
/// the intended lexemes: a check of the generator and of Earley, before either judges.
fn check_generated(f: &Fixture, sentence: &Sentence) -> Result<(), TestCaseError> {
    if let Some(lexemes) = split(&f.lexer, &sentence.text) {
        if f.generator.lexed_as_derived(sentence, &lexemes) {
            prop_assert!(f.earley.accepts(&lexemes), "Earley rejects the derived sentence {}", show(&sentence.text));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The judge itself
// ---------------------------------------------------------------------------------------

/// Earley on hidden left recursion through a nullable rule (`s: a s "c" | "d"`,
/// `a: "e" | ε`), where naive ε handling loses parses, and on lexemes with several
/// candidates or an ignored one.
#[test]
fn earley_judges_known_inputs() {
    let mut b = GrammarBuilder::new();
    let mut literal = |s: &str, ignored: bool| b.terminal(s, TerminalPattern::Regex(s.into()), 0, ignored);
    let (c, d, e, ws) = (literal("c", false), literal("d", false), literal("e", false), literal(" ", true));
    let (s, a) = (b.nonterminal("s"), b.nonterminal("a"));
    b.production(s, vec![Symbol::Nonterminal(a), Symbol::Nonterminal(s), Symbol::Terminal(c)]);
    b.production(s, vec![Symbol::Terminal(d)]);
    b.production(a, vec![Symbol::Terminal(e)]);
    b.production(a, vec![]);
    let earley = Earley::new(&b.build(s).unwrap());
    let word = |ts: &[TerminalId]| ts.iter().map(|&t| vec![t]).collect::<Vec<_>>();
    assert!(earley.accepts(&word(&[d])));
    assert!(earley.accepts(&word(&[d, c, c])));
    assert!(earley.accepts(&word(&[e, e, d, c, c])));
    assert!(!earley.accepts(&word(&[e, d])));
    assert!(earley.is_prefix(&word(&[e, d])));
    assert!(!earley.is_prefix(&word(&[e, c])));
    assert_eq!(earley.expected_terminals(&word(&[e])), BTreeSet::from([d, e]));
    assert!(earley.accepts(&[vec![c, d]]), "a lexeme is read if any candidate can be");
    assert!(earley.accepts(&word(&[ws, d, ws])), "ignored lexemes are skipped");
    assert!(earley.accepts(&[vec![d], vec![c, ws]]), "an ignored candidate may be skipped");
}

// ---------------------------------------------------------------------------------------
// Sentences, byte by byte
// ---------------------------------------------------------------------------------------

/// Feed `text` one byte at a time: every byte must be accepted, every prefix viable, and
/// the whole text complete.
fn check_recognizes_sentence(f: &Fixture, text: &[u8]) -> Result<(), TestCaseError> {
    let mut r = Recognizer::new(Arc::clone(&f.compiled));
    for (i, &b) in text.iter().enumerate() {
        if let Err(e) = r.feed(&[b]) {
            return Err(TestCaseError::fail(format!("byte {i} of sentence {} rejected: {e}", show(text))));
        }
        prop_assert!(ok(r.is_viable())?, "prefix {} of a sentence is not viable", show(&text[..=i]));
    }
    prop_assert!(ok(r.is_complete())?, "sentence {} is not complete", show(text));
    Ok(())
}

proptest! {
    #![proptest_config(config(SENTENCE_CASES))]

    /// Every generated sentence that Earley accepts (as lexed) is accepted by the
    /// recognizer byte by byte, viable after every byte and complete at the end.
    #[test]
    fn generated_sentences_are_recognized(f in any_lark_fixture(), seed in any::<u64>()) {
        let sentence = generate_sentence(f, &mut rng_from_seed(seed));
        check_generated(f, &sentence)?;
        if earley_accepts_text(f, &sentence.text) {
            check_recognizes_sentence(f, &sentence.text)?;
        }
    }
}

/// The properties above are vacuous if generated texts rarely lex into sentences: on
/// every hand-written grammar most of them must.
#[test]
fn generated_sentences_are_mostly_sentences() {
    const SEEDS: u64 = 40;
    for f in lark_fixtures() {
        let accepted = (0..SEEDS)
            .filter(|&seed| {
                let sentence = generate_sentence(f, &mut rng_from_seed(seed));
                earley_accepts_text(f, &sentence.text)
            })
            .count() as u64;
        assert!(accepted * 10 >= SEEDS * 8, "{}: only {accepted}/{SEEDS} generated texts are sentences", f.name);
    }
}

// ---------------------------------------------------------------------------------------
// Sentences, token by token
// ---------------------------------------------------------------------------------------

/// Pairs are built over at most this many distinct bytes of the text.
const PAIR_ALPHABET: usize = 10;
/// Longest piece of a random split of a text into tokens.
const MAX_PIECE: usize = 8;

/// A small vocabulary for `text`: every byte of it, every pair over its first distinct
/// bytes, the pieces of a random split of it into tokens, then an unused id (a
/// special token that is never allowed) and EOS. Returns the vocabulary and the split as
/// token ids.
fn synthetic_vocab(rng: &mut TestRng, text: &[u8]) -> (Arc<Vocabulary>, Vec<u32>) {
    let pieces = random_split(rng, text);
    let mut alphabet: Vec<u8> = text.to_vec();
    alphabet.sort_unstable();
    alphabet.dedup();
    let pair_alphabet = &alphabet[..alphabet.len().min(PAIR_ALPHABET)];
    let mut tokens: BTreeSet<Vec<u8>> = alphabet.iter().map(|&b| vec![b]).collect();
    tokens.extend(pair_alphabet.iter().flat_map(|&a| pair_alphabet.iter().map(move |&b| vec![a, b])));
    tokens.extend(pieces.iter().cloned());
    let tokens: Vec<Vec<u8>> = tokens.into_iter().collect();
    let ids: HashMap<&[u8], u32> = tokens.iter().enumerate().map(|(i, t)| (t.as_slice(), i as u32)).collect();
    let split_ids = pieces.iter().map(|p| ids[p.as_slice()]).collect();
    let eos = tokens.len() as u32 + 1;
    (Arc::new(Vocabulary::from_token_bytes(tokens, Some(eos))), split_ids)
}

/// `text` cut into consecutive pieces of 1–`MAX_PIECE` bytes, mostly short ones; long
/// pieces span several lexemes, as real tokens such as `", "` or `"\n    "` do.
fn random_split(rng: &mut TestRng, text: &[u8]) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let longest = if rng.random_bool(0.2) { MAX_PIECE } else { 3 };
        let len = rng.random_range(1..=longest).min(text.len() - at);
        pieces.push(text[at..at + len].to_vec());
        at += len;
    }
    pieces
}

/// Every mask path must equal the reference mask: the matcher's own (the stack
/// classifier), the trie walk and the per-class mask.
fn check_mask(m: &mut Matcher, step: usize, text: &[u8]) -> Result<(), TestCaseError> {
    let spanner = Arc::clone(m.classifier().expect("matchers under test use a classifier").spanner());
    let (mut by_classes, mut walked) = (vec![0u32; m.mask_words()], vec![0u32; m.mask_words()]);
    ok(m.compute_mask_by_classes(&spanner, &mut by_classes))?;
    ok(m.compute_mask_by_trie(&mut walked))?;
    prop_assert_eq!(&by_classes, &walked, "per-class mask differs after {} tokens of {}", step, show(text));
    match ok(oracle::verify(m))? {
        Ok(()) => Ok(()),
        Err((only_fast, only_reference)) => Err(TestCaseError::fail(format!(
            "mask differs after {step} tokens of {}: fast-only [{}], reference-only [{}]",
            show(text),
            token_names(m.vocab(), &only_fast),
            token_names(m.vocab(), &only_reference)
        ))),
    }
}

fn token_names(vocab: &Vocabulary, tokens: &[u32]) -> String {
    tokens.iter().map(|&t| vocab.token_bytes(t).map_or_else(|| vocab.token_name(t), show)).collect::<Vec<_>>().join(" ")
}

/// Commit `tokens` then EOS, checking at every step that commit succeeds exactly when the
/// reference definition says the text stays viable (EOS: complete) and that the fast mask
/// equals the reference mask; then that rolling back restores an earlier mask. Returns
/// whether every token and EOS were committed.
fn check_commits(
    f: &Fixture,
    vocab: &Arc<Vocabulary>,
    tokens: &[u32],
    rng: &mut TestRng,
) -> Result<bool, TestCaseError> {
    let classifier = StackClassifier::with_config(Arc::clone(&f.compiled), Arc::clone(vocab), classifier_config(rng));
    let mut m = Matcher::with_classifier(Arc::new(classifier));
    let mut reference = ReferenceRecognizer::new(&f.lexer, &f.earley);
    let mut text = Vec::new();
    let mut masks = Vec::new();
    let mut all_committed = true;
    for &token in tokens {
        check_mask(&mut m, masks.len(), &text)?;
        masks.push(fast_mask(&mut m)?);
        let bytes = vocab.token_bytes(token).expect("text tokens have bytes");
        let expected = reference.feed_all(bytes);
        let committed = m.commit(token);
        prop_assert_eq!(
            committed.is_ok(),
            expected,
            "commit {} after {}: {:?}",
            show(bytes),
            show(&text),
            committed.err()
        );
        if !expected {
            all_committed = false;
            break;
        }
        text.extend_from_slice(bytes);
    }
    let mut completed = false;
    if all_committed {
        check_mask(&mut m, masks.len(), &text)?;
        masks.push(fast_mask(&mut m)?);
        completed = check_eos(&mut m, &mut reference, &text, &mut masks)?;
    }
    check_rollback(&mut m, &masks, rng)?;
    Ok(completed)
}

/// A classifier configuration: mostly the default; sometimes bounds small enough that
/// the cache is cleared, or transitions overflow into the per-class path, mid-text.
fn classifier_config(rng: &mut TestRng) -> ClassifierConfig {
    match rng.random_range(0..6) {
        0 => ClassifierConfig { cache_capacity: 1, ..ClassifierConfig::default() },
        1 => ClassifierConfig { max_known_stack: 3, max_transition_work: 50, ..ClassifierConfig::default() },
        _ => ClassifierConfig::default(),
    }
}

/// Commit EOS: it succeeds exactly when the reference says the text is complete, and then
/// ends the sequence (the mask becomes empty; pushed to `masks`). Returns whether it did.
fn check_eos(
    m: &mut Matcher,
    reference: &mut ReferenceRecognizer,
    text: &[u8],
    masks: &mut Vec<Vec<u32>>,
) -> Result<bool, TestCaseError> {
    let eos = m.vocab().eos_tokens()[0];
    let complete = reference.is_complete();
    prop_assert_eq!(m.commit(eos).is_ok(), complete, "EOS after {}", show(text));
    if complete {
        prop_assert!(m.is_terminated());
        let after_eos = fast_mask(m)?;
        prop_assert_eq!(&after_eos, &vec![0; m.mask_words()], "mask after EOS");
        masks.push(after_eos);
    }
    Ok(complete)
}

/// The matcher's mask, by its fast path.
fn fast_mask(m: &mut Matcher) -> Result<Vec<u32>, TestCaseError> {
    let mut mask = vec![0u32; m.mask_words()];
    ok(m.compute_mask(&mut mask))?;
    Ok(mask)
}

/// Roll back to a random earlier step (`masks[i]` is the mask after `i` commits, EOS
/// included): the mask must be the one computed there.
fn check_rollback(m: &mut Matcher, masks: &[Vec<u32>], rng: &mut TestRng) -> Result<(), TestCaseError> {
    let steps = m.committed_steps();
    let back = rng.random_range(0..=steps);
    ok(m.rollback(back))?;
    let step = steps - back;
    prop_assert_eq!(&fast_mask(m)?, &masks[step], "mask after rolling back to step {}", step);
    Ok(())
}

proptest! {
    #![proptest_config(config(TOKEN_CASES))]

    /// Token by token with a small synthetic vocabulary, on sentences and (a third of the
    /// time) edited sentences: commit accepts each token, and EOS, exactly when the
    /// reference does (so a sentence's tokens and EOS all commit), and the fast mask equals
    /// the reference mask at every step.
    #[test]
    fn commits_agree_with_earley_token_by_token(f in any_lark_fixture(), seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let sentence = generate_sentence(f, &mut rng);
        let text = if rng.random_bool(0.3) { edit(&mut rng, &sentence.text) } else { sentence.text };
        let (vocab, tokens) = synthetic_vocab(&mut rng, &text);
        let completed = check_commits(f, &vocab, &tokens, &mut rng)?;
        prop_assert_eq!(completed, earley_accepts_text(f, &text), "{} commits with EOS", show(&text));
    }
}

// ---------------------------------------------------------------------------------------
// Edited sentences
// ---------------------------------------------------------------------------------------

/// `text` with 1–3 random single-byte insertions, deletions or replacements.
fn edit(rng: &mut TestRng, text: &[u8]) -> Vec<u8> {
    let mut out = text.to_vec();
    for _ in 0..rng.random_range(1..=3) {
        let byte = if !text.is_empty() && rng.random_bool(0.5) { *pick(rng, text) } else { *pick(rng, EDIT_BYTES) };
        match rng.random_range(0..3) {
            0 => {
                let at = rng.random_range(0..=out.len());
                out.insert(at, byte);
            }
            _ if out.is_empty() => {}
            1 => {
                let at = rng.random_range(0..out.len());
                out.remove(at);
            }
            _ => {
                let at = rng.random_range(0..out.len());
                out[at] = byte;
            }
        }
    }
    out
}

/// Feed `text` byte by byte to the recognizer and to the reference definition: each byte
/// is accepted by both or rejected by both (a rejected byte leaves both unchanged, so
/// feeding goes on as if it were deleted), and after each accepted byte the recognizer
/// is viable and is complete exactly when the reference is.
fn check_against_reference(f: &Fixture, text: &[u8]) -> Result<(), TestCaseError> {
    let mut r = Recognizer::new(Arc::clone(&f.compiled));
    let mut reference = ReferenceRecognizer::new(&f.lexer, &f.earley);
    let mut fed = Vec::new();
    for &b in text {
        let expected = reference.feed(b);
        let got = r.feed(&[b]);
        prop_assert_eq!(got.is_ok(), expected, "byte {} after {}: {:?}", show(&[b]), show(&fed), got.err());
        if !expected {
            prop_assert_eq!(r.offset(), fed.len(), "a rejected byte moved the recognizer");
            continue;
        }
        fed.push(b);
        prop_assert!(ok(r.is_viable())?, "{} accepted but not viable", show(&fed));
        prop_assert_eq!(ok(r.is_complete())?, reference.is_complete(), "completeness of {}", show(&fed));
    }
    Ok(())
}

/// The offset of the first byte of `text` after which it is no longer a viable prefix.
fn first_unviable_offset(f: &Fixture, text: &[u8]) -> Option<usize> {
    let mut reference = ReferenceRecognizer::new(&f.lexer, &f.earley);
    text.iter().position(|&b| !reference.feed(b))
}

/// Feeding a whole text at once fails exactly when some prefix is not viable, and reports
/// the first such byte (the contract of `Recognizer::feed`).
fn check_rejection_offset(f: &Fixture, text: &[u8]) -> Result<(), TestCaseError> {
    let mut r = Recognizer::new(Arc::clone(&f.compiled));
    let got = match r.feed(text) {
        Ok(()) => None,
        Err(Error::Rejected { offset, .. }) => Some(offset),
        Err(e) => return Err(TestCaseError::fail(format!("unexpected error: {e}"))),
    };
    prop_assert_eq!(got, first_unviable_offset(f, text), "rejection offset of {}", show(text));
    Ok(())
}

proptest! {
    #![proptest_config(config(EDIT_CASES))]

    /// Edited sentences: the recognizer agrees with the Earley-based reference on every
    /// prefix (viable, complete), hence at lexeme boundaries with Earley's `is_prefix`.
    #[test]
    fn edited_sentences_agree_with_earley(f in any_lark_fixture(), seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let sentence = generate_sentence(f, &mut rng);
        check_against_reference(f, &edit(&mut rng, &sentence.text))?;
    }

    /// Feeding an edited sentence at once is rejected at the first non-viable byte.
    #[test]
    fn rejections_report_the_first_unviable_byte(f in any_lark_fixture(), seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let sentence = generate_sentence(f, &mut rng);
        check_rejection_offset(f, &edit(&mut rng, &sentence.text))?;
    }
}

// ---------------------------------------------------------------------------------------
// Terminal level: the GLR parser against Earley, without the lexer
// ---------------------------------------------------------------------------------------

/// Lexemes fed per terminal-level case.
const LEXEMES_PER_CASE: usize = 14;
/// Probability that a lexeme's first candidate is one Earley expects (keeps inputs long).
const FOLLOW_EXPECTED: f64 = 0.75;

/// The terminals a lexeme can report: those in productions and the ignored ones.
fn lexeme_terminals(g: &Grammar) -> Vec<TerminalId> {
    let mut ts: BTreeSet<TerminalId> = g
        .productions
        .iter()
        .flat_map(|p| &p.rhs)
        .filter_map(|s| match s {
            Symbol::Terminal(t) => Some(*t),
            Symbol::Nonterminal(_) => None,
        })
        .collect();
    ts.extend((0..g.terminals.len() as u32).map(TerminalId).filter(|t| g.terminals[t.index()].ignored));
    ts.into_iter().collect()
}

/// A random lexeme: one or two candidates, the first often one that can come next.
fn random_lexeme(rng: &mut TestRng, terminals: &[TerminalId], expected: &BTreeSet<TerminalId>) -> Vec<TerminalId> {
    let expected: Vec<TerminalId> = expected.iter().copied().collect();
    let first = if !expected.is_empty() && rng.random_bool(FOLLOW_EXPECTED) {
        *pick(rng, &expected)
    } else {
        *pick(rng, terminals)
    };
    let mut lexeme = vec![first];
    if rng.random_bool(0.25) {
        lexeme.push(*pick(rng, terminals));
    }
    lexeme.dedup();
    lexeme
}

/// Feed random lexemes to the GLR parser (LALR tables) and to Earley: after each, the
/// parser survives exactly when Earley has a prefix (a rejected lexeme leaves both
/// unchanged), then both agree on the state (see [`check_same_state`]).
fn check_glr_against_earley(g: &Grammar, rng: &mut TestRng) -> Result<(), TestCaseError> {
    let tables = ok(LrTables::new(g, &LrConfig::default()))?;
    let earley = Earley::new(g);
    let mut chart = earley.chart();
    let mut parser = Parser::new(&GlrConfig::default());
    let terminals = lexeme_terminals(g);
    let mut fed: Vec<Vec<TerminalId>> = Vec::new();
    check_same_state(&mut parser, &tables, &chart, &fed)?;
    if terminals.is_empty() {
        return Ok(());
    }
    for _ in 0..LEXEMES_PER_CASE {
        let lexeme = random_lexeme(rng, &terminals, &chart.expected_terminals());
        let parsed: Vec<TerminalId> = lexeme.iter().copied().filter(|t| !g.terminals[t.index()].ignored).collect();
        let skippable = parsed.len() < lexeme.len();
        let survived = ok(parser.consume(&tables, &parsed, skippable))?;
        chart.push(&lexeme);
        prop_assert_eq!(survived, chart.is_prefix(), "lexeme {:?} after {:?}", lexeme, fed);
        if !survived {
            chart.pop();
            continue;
        }
        fed.push(lexeme);
        check_same_state(&mut parser, &tables, &chart, &fed)?;
    }
    Ok(())
}

/// The parser accepts end of input exactly when Earley accepts, and can consume next
/// exactly the terminals Earley expects.
fn check_same_state(
    parser: &mut Parser,
    tables: &LrTables,
    chart: &Chart,
    fed: &[Vec<TerminalId>],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(ok(parser.accepts_end(tables))?, chart.accepts(), "end of input after {:?}", fed);
    let everything = TerminalSet::full(tables.terminal_capacity());
    let mut viable: BTreeSet<TerminalId> = ok(parser.viable_terminals(tables, &everything))?.iter().collect();
    viable.remove(&tables.end());
    prop_assert_eq!(viable, chart.expected_terminals(), "terminals after {:?}", fed);
    Ok(())
}

proptest! {
    #![proptest_config(config(RANDOM_GLR_CASES))]

    /// GLR and Earley agree on random lexeme sequences of random grammars.
    #[test]
    fn glr_agrees_with_earley_on_random_grammars(g in random_grammar(), seed in any::<u64>()) {
        check_glr_against_earley(&g.0, &mut rng_from_seed(seed))?;
    }
}

proptest! {
    #![proptest_config(config(LARK_GLR_CASES))]

    /// GLR and Earley agree on random lexeme sequences of the hand-written grammars.
    #[test]
    fn glr_agrees_with_earley_on_lark_grammars(f in any_lark_fixture(), seed in any::<u64>()) {
        check_glr_against_earley(&f.grammar, &mut rng_from_seed(seed))?;
    }
}

// ---------------------------------------------------------------------------------------
// Random grammars, byte level
// ---------------------------------------------------------------------------------------

/// A text for a random grammar: a generated sentence, or random terminals rendered as
/// text (mostly not a sentence), edited half of the time.
fn random_grammar_text(f: &Fixture, rng: &mut TestRng) -> Vec<u8> {
    let generated = if rng.random_bool(0.5) { f.generator.sentence(rng, DEPTH, MAX_TERMINALS) } else { None };
    let sentence = generated.unwrap_or_else(|| {
        let terminals = f.generator.sentence_terminals();
        let count = if terminals.is_empty() { 0 } else { rng.random_range(0..8) };
        let sequence: Vec<TerminalId> = (0..count).map(|_| *pick(rng, &terminals)).collect();
        f.generator.render(rng, &sequence)
    });
    if rng.random_bool(0.5) {
        edit(rng, &sentence.text)
    } else {
        sentence.text
    }
}

proptest! {
    #![proptest_config(config(RANDOM_TEXT_CASES))]

    /// On random grammars, the recognizer agrees with the Earley-based reference on every
    /// prefix of random texts.
    #[test]
    fn recognizer_agrees_with_earley_on_random_grammars(g in random_grammar(), seed in any::<u64>()) {
        let f = Fixture::new("random", g.0);
        let mut rng = rng_from_seed(seed);
        let text = random_grammar_text(&f, &mut rng);
        check_against_reference(&f, &text)?;
    }
}

proptest! {
    #![proptest_config(config(RANDOM_MASK_CASES))]

    /// On random grammars (ambiguous ones, ε-rules and left and right recursion
    /// included), token by token with a synthetic vocabulary: every mask path, the stack
    /// classifier's first, equals the reference mask at every step, and commits agree with
    /// Earley.
    #[test]
    fn masks_equal_the_reference_on_random_grammars(g in random_grammar(), seed in any::<u64>()) {
        let f = Fixture::new("random", g.0);
        let mut rng = rng_from_seed(seed);
        let text = random_grammar_text(&f, &mut rng);
        let (vocab, tokens) = synthetic_vocab(&mut rng, &text);
        check_commits(&f, &vocab, &tokens, &mut rng)?;
    }
}

// ---------------------------------------------------------------------------------------
// Lexing contexts
// ---------------------------------------------------------------------------------------

/// String terminals of the kinds a JSON schema gives its properties: bounded and
/// unbounded, with escapes, formats and enumerations, all starting with `"` (so the full
/// lexer runs them side by side), one that is not a whole JSON string and goes on past
/// its closing quote with what may follow a value (a context that dropped it would close
/// the string before the comma), and JSON strings with length bounds beyond
/// [`CONTEXT_COUNT_BEYOND`] characters, which the lexer counts (with a horizon of
/// [`CONTEXT_COUNT_HORIZON`] bytes, counts 1..=12 are classes of their own, 0 and 13..
/// far runs, the first left at the first character).
const STRING_PATTERNS: &[&str] = &[
    r#""[a-c]{1,4}""#,
    r#""[a-z]*""#,
    r#""(?:[^"\\]|\\.)*""#,
    r#""[b-d]+-[0-9]{2}""#,
    r#""(?:ab|cd)""#,
    r#""[a-c]*","#,
    r#""(?:[^"\\\x00-\x1F]|\\["\\bfnrt]|\\u00[01][0-9a-fA-F]){0,12}""#,
    r#""(?:[^"\\\x00-\x1F]|\\["\\bfnrt]|\\u00[01][0-9a-fA-F]){10,}""#,
];

/// The count horizon of the lexers of [`string_fields_grammar`]: no synthetic token is
/// longer ([`MAX_PIECE`]), and the last two [`STRING_PATTERNS`] are counted.
const CONTEXT_COUNT_HORIZON: usize = MAX_PIECE;

/// Strings with a length bound beyond this are counted: one more than the horizon, so
/// that the two differ (as they do for a real vocabulary, whose longest token is short
/// of the strings worth counting).
const CONTEXT_COUNT_BEYOND: usize = CONTEXT_COUNT_HORIZON + 1;

/// The compile configuration of [`string_fields_grammar`]'s lexers: contexts however
/// small the lexer, counting beyond [`CONTEXT_COUNT_BEYOND`] for a horizon of
/// [`CONTEXT_COUNT_HORIZON`].
fn string_fields_config() -> CompileConfig {
    let lexer = LexerConfig {
        context_product_states: 0,
        count_horizon: CONTEXT_COUNT_HORIZON,
        count_strings_beyond: CONTEXT_COUNT_BEYOND,
        ..LexerConfig::default()
    };
    CompileConfig { lexer, ..CompileConfig::default() }
}

/// A grammar of `{k: v, ...}` records whose fields each take one or two of
/// [`STRING_PATTERNS`] (picked by `fields`), so that each field's value has a lexing
/// context of its own.
fn string_fields_grammar(fields: &[(usize, Option<usize>)]) -> Grammar {
    let mut text = String::from("start: \"{\" pair (\",\" pair)* \"}\"\n");
    let pairs: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| match b {
            Some(b) => format!("\"k{i}\" \":\" (S{a} | S{b})"),
            None => format!("\"k{i}\" \":\" S{a}"),
        })
        .collect();
    text.push_str(&format!("pair: {}\n", pairs.join(" | ")));
    for (i, pattern) in STRING_PATTERNS.iter().enumerate() {
        text.push_str(&format!("S{i}: /{pattern}/\n"));
    }
    text.push_str("%ignore \" \"\n");
    Grammar::from_lark(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn string_fields() -> impl Strategy<Value = Vec<(usize, Option<usize>)>> {
    let pattern = 0..STRING_PATTERNS.len();
    prop::collection::vec((pattern.clone(), prop::option::weighted(0.3, pattern)), 2..5)
}

proptest! {
    #![proptest_config(config(CONTEXT_CASES))]

    /// Records whose fields take different strings, compiled with lexing contexts even
    /// for lexers this small: every mask path equals the reference mask at every step,
    /// and commits agree with Earley (the reference lexes with the full lexer).
    #[test]
    fn masks_equal_the_reference_in_lexing_contexts(fields in string_fields(), seed in any::<u64>()) {
        let f = Fixture::with_config("string fields", string_fields_grammar(&fields), &string_fields_config());
        // Fields that all take one string, or strings the lexer cannot keep apart, have
        // no context to test.
        prop_assume!(f.compiled.lexer().context_count() > 0);
        let mut rng = rng_from_seed(seed);
        let text = random_grammar_text(&f, &mut rng);
        let (vocab, tokens) = synthetic_vocab(&mut rng, &text);
        check_commits(&f, &vocab, &tokens, &mut rng)?;
    }
}

/// The counted [`STRING_PATTERNS`] are counted, and lexers counting them get contexts:
/// the property test above covers counting in contexts.
#[test]
fn counted_string_fields_get_contexts() {
    let counted = STRING_PATTERNS.len() - 2;
    let fields = string_fields_grammar(&[(counted, None), (counted + 1, Some(1)), (0, None)]);
    let f = Fixture::with_config("counted fields", fields, &string_fields_config());
    assert_eq!(f.compiled.lexer().count_horizon(), Some(CONTEXT_COUNT_HORIZON));
    assert!(f.compiled.lexer().context_count() > 0);
}

// ---------------------------------------------------------------------------------------
// Cost of ambiguity
// ---------------------------------------------------------------------------------------

/// Ambiguity must cost polynomial time, as local ambiguity packing promises, on
/// `s: s s s | "a" | ε`.
#[test]
fn highly_ambiguous_epsilon_grammar_is_recognized() {
    // Without memoized path ends in the GLR reductions this took ~10 s at 200 bytes
    // (O(n^5)); a regression shows as a suite that stops finishing, not as a timed assert.
    const LENGTH: usize = 300;
    let f = &cubic_epsilon_fixture();
    let text = vec![b'a'; LENGTH];
    assert!(earley_accepts_text(f, &text));
    let mut r = Recognizer::new(Arc::clone(&f.compiled));
    for &b in &text {
        r.feed(&[b]).unwrap();
    }
    assert!(r.is_complete().unwrap());
}

// ---------------------------------------------------------------------------------------
// Real tokenizers
// ---------------------------------------------------------------------------------------

const TOKENIZER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tokenizers");
const TOKENIZER_FILES: &[&str] = &["llama3.tokenizer.json.gz", "qwen3.tokenizer.json.gz", "gemma3.tokenizer.json.gz"];
/// Steps at which the fast mask is compared with the (vocabulary-sized) reference mask.
const ORACLE_STEPS: usize = 2;

/// The three real tokenizers, loaded once per test binary; `None` (after saying so on
/// stderr) when the shared folder is missing.
fn real_tokenizers() -> Option<&'static [(&'static str, Tokenizer)]> {
    static TOKENIZERS: OnceLock<Option<Vec<(&'static str, Tokenizer)>>> = OnceLock::new();
    TOKENIZERS
        .get_or_init(|| {
            if !std::path::Path::new(TOKENIZER_DIR).is_dir() {
                eprintln!("SKIPPED: ../shared/tokenizers not found");
                return None;
            }
            let load = |file: &'static str| {
                let path = format!("{TOKENIZER_DIR}/{file}");
                (file, Tokenizer::from_file(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
            };
            Some(TOKENIZER_FILES.iter().map(|&file| load(file)).collect())
        })
        .as_deref()
}

/// Commit `text`, encoded with `tokenizer`, then EOS; compare the classifier's mask with
/// the per-class mask at every step, and every path with the reference mask on the first
/// steps and before EOS (where every EOS id must be set).
fn check_real_tokenizer(f: &Fixture, name: &str, tokenizer: &Tokenizer, text: &str) -> Result<(), TestCaseError> {
    let vocab = tokenizer.vocab_arc();
    let tokens = tokenizer.encode(text).map_err(|e| TestCaseError::fail(format!("{name}: encode: {e}")))?;
    let mut m = Matcher::with_classifier(Arc::new(StackClassifier::new(Arc::clone(&f.compiled), Arc::clone(&vocab))));
    for (step, &token) in tokens.iter().enumerate() {
        if step < ORACLE_STEPS {
            check_mask(&mut m, step, text.as_bytes())?;
        } else {
            let spanner = Arc::clone(m.classifier().expect("classifier").spanner());
            let mut by_classes = vec![0u32; m.mask_words()];
            ok(m.compute_mask_by_classes(&spanner, &mut by_classes))?;
            prop_assert_eq!(fast_mask(&mut m)?, by_classes, "{}: classifier mask at step {}", name, step);
        }
        let committed = m.commit(token);
        prop_assert!(committed.is_ok(), "{}: token {} of {:?}: {:?}", name, step, text, committed.err());
    }
    check_mask(&mut m, tokens.len(), text.as_bytes())?;
    let eos = *vocab.eos_tokens().first().expect("real tokenizers have an EOS token");
    prop_assert!(m.commit(eos).is_ok(), "{}: EOS after {:?}", name, text);
    Ok(())
}

proptest! {
    #![proptest_config(config(REAL_TOKENIZER_CASES))]

    /// Generated JSON documents, tokenized by each real tokenizer, are accepted token by
    /// token and then EOS.
    #[test]
    fn json_commits_with_real_tokenizers(seed in any::<u64>()) {
        let Some(tokenizers) = real_tokenizers() else { return Ok(()) };
        let f = lark_fixture("json");
        let sentence = generate_sentence(f, &mut rng_from_seed(seed));
        prop_assume!(earley_accepts_text(f, &sentence.text));
        let text = String::from_utf8(sentence.text).expect("generated JSON is UTF-8");
        for (name, tokenizer) in tokenizers {
            check_real_tokenizer(f, name, tokenizer, &text)?;
        }
    }
}
