//! The bodies of the fuzz targets, shared by `cargo fuzz` (the binaries in
//! `fuzz_targets/`) and by the stable test suite (`tests/fuzz_bodies.rs` includes this
//! file as a module and replays the seed corpora and random inputs through it).
//!
//! Each body takes arbitrary bytes and panics only on a bug: a panic inside stackmask, an
//! error of a kind the call cannot return, or a broken invariant (the fast mask differs
//! from the token-by-token reference, a commit disagrees with the mask, a rollback does not
//! restore, a rejection reports the wrong byte).
//!
//! Surfaces covered: Lark text ([`lark_compile`]), JSON-Schema text
//! ([`json_schema_compile`]), token ids and bytes through the matcher ([`matcher_ops`]),
//! bytes through the recognizer on real grammars ([`recognizer_feed`]), serialized
//! classifier artifacts ([`artifact_load`]).

use stackmask::classifier::{ArtifactConfig, ClassifierConfig, StackClassifier};
use stackmask::matcher::{oracle, CompileConfig, Recognizer};
use stackmask::tokenizer::Vocabulary;
use stackmask::{CompiledGrammar, Error, Grammar, Matcher};
use std::hash::Hasher as _;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Limits small enough that one input stays fast, deterministic (no wall-clock budget).
fn small_config() -> CompileConfig {
    let mut config = CompileConfig { time_budget: None, ..CompileConfig::default() };
    config.lexer.max_states = 2_000;
    config.lexer.time_budget = None;
    config.lr.max_states = 2_000;
    config.lr.time_budget = None;
    config.glr.max_nodes_per_step = 10_000;
    config.glr.max_work_per_step = 1_000_000;
    config
}

fn compile(text: &str) -> Arc<CompiledGrammar> {
    compile_with(text, &small_config())
}

fn compile_with(text: &str, config: &CompileConfig) -> Arc<CompiledGrammar> {
    let grammar = Grammar::from_lark(text).expect("fixture grammar");
    Arc::new(CompiledGrammar::with_config(&grammar, config).expect("fixture grammar compiles"))
}

/// [`small_config`] with lexing contexts however few product states the lexer has.
fn contexts_config() -> CompileConfig {
    let mut config = small_config();
    config.lexer.context_product_states = 0;
    // Beyond the longest token (6 bytes), short of `LONG`'s bound: `LONG` is counted.
    config.lexer.count_horizon = 8;
    config.lexer.count_strings_beyond = 8;
    config
}

/// Panics unless `error` is one a call on a valid object may return for hostile input.
fn expect_input_error(error: &Error) {
    assert!(
        matches!(
            error,
            Error::Rejected { .. } | Error::Limit { .. } | Error::TokenOutOfRange { .. } | Error::Rollback { .. }
        ),
        "unexpected error: {error}"
    );
}

// ---------------------------------------------------------------------------------------
// Lark text → compile → run.

/// Arbitrary text as a Lark grammar: the front-end, the lexer and the LR construction
/// return `Ok` or a grammar, terminal or limit error. A grammar that compiles then reads
/// the input's own bytes: accepted chunks leave a viable prefix, rejected ones change
/// nothing.
pub fn lark_compile(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let grammar = match Grammar::from_lark(text) {
        Ok(grammar) => grammar,
        Err(e) => {
            assert!(
                matches!(e, Error::Grammar { .. } | Error::EmptyLanguage { .. } | Error::Limit { .. }),
                "unexpected front-end error: {e}"
            );
            return;
        }
    };
    let compiled = match CompiledGrammar::with_config(&grammar, &small_config()) {
        Ok(compiled) => compiled,
        Err(e) => {
            assert!(matches!(e, Error::Terminal { .. } | Error::Limit { .. }), "unexpected compile error: {e}");
            return;
        }
    };
    let mut r = Recognizer::new(Arc::new(compiled));
    for chunk in data.chunks(7).take(32) {
        feed_checked(&mut r, chunk);
    }
    if let Err(e) = r.is_complete() {
        expect_input_error(&e);
    }
}

// ---------------------------------------------------------------------------------------
// JSON-Schema text → compile → run.

/// Arbitrary text as a JSON Schema: the front-end returns `Ok` or a schema, limit or
/// empty-language error; a grammar that compiles reads the bytes after the first
/// newline as an instance (accepted chunks leave a viable prefix, rejected ones change
/// nothing), and every JSON text accepted in full must parse as JSON.
pub fn json_schema_compile(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (schema, instance) = text.split_once('\n').unwrap_or((text, ""));
    let grammar = match Grammar::from_json_schema(schema) {
        Ok(grammar) => grammar,
        Err(e) => {
            assert!(
                matches!(e, Error::Schema { .. } | Error::EmptyLanguage { .. } | Error::Limit { .. }),
                "unexpected JSON Schema error: {e}"
            );
            return;
        }
    };
    let compiled = match CompiledGrammar::with_config(&grammar, &small_config()) {
        Ok(compiled) => compiled,
        Err(e) => {
            // A limit, or a terminal whose regex outgrows the NFA size limit (a string
            // of at least 38,887 characters, unbounded above, is not counted).
            let too_large = matches!(&e, Error::Terminal { reason, .. } if reason.contains("is too large"));
            assert!(matches!(e, Error::Limit { .. }) || too_large, "unexpected compile error: {e}");
            return;
        }
    };
    let mut r = Recognizer::new(Arc::new(compiled));
    let mut all_accepted = true;
    for chunk in instance.as_bytes().chunks(5).take(64) {
        all_accepted &= feed_checked(&mut r, chunk);
    }
    if all_accepted && instance.len() <= 320 && matches!(r.is_complete(), Ok(true)) {
        assert!(
            serde_json::from_str::<serde_json::Value>(instance).is_ok(),
            "the grammar of {schema} accepts {instance:?}, which is not JSON"
        );
    }
}

/// Feed `chunk`; on success the text is viable, on failure nothing moved.
fn feed_checked(r: &mut Recognizer, chunk: &[u8]) -> bool {
    let before = r.offset();
    match r.feed(chunk) {
        Ok(()) => {
            assert!(r.is_viable().unwrap_or(true), "accepted bytes left a text that is not viable");
            true
        }
        Err(e) => {
            expect_input_error(&e);
            assert_eq!(r.offset(), before, "a rejected feed moved the recognizer");
            false
        }
    }
}

// ---------------------------------------------------------------------------------------
// Commit / rollback / mask on fixed grammars, against the oracle.

/// Ambiguous statements with keywords that are also names.
const STATEMENTS: &str = r#"
start: stmt+
stmt: "if" expr "then" stmt ("else" stmt)? | NAME "=" expr ";"
expr: expr "+" expr | expr "*" expr | "(" expr ")" | NAME | NUMBER
NAME: /[a-z]+/
NUMBER: /[0-9]+/
%ignore " "
"#;

/// Lazy strings, comments and an ignored terminal that is also part of a value.
const CONFIG: &str = r#"
start: (pair | COMMENT)*
pair: NAME ":" (NAME | STRING | NUMBER)
NAME: /[a-z]+/
STRING: /".*?"/
NUMBER.2: /[0-9]+/
COMMENT: /#[^\n]*/
%ignore /[ \n]+/
"#;

/// Records whose fields take different strings (bounded, unbounded, escaped, formatted,
/// and a length-bounded JSON string the lexer counts), compiled with lexing contexts:
/// masks read each value in the context of its field. (A string that went on past its
/// quote would keep every string in every context.)
const FIELDS: &str = r#"
start: "{" (pair ("," pair)*)? "}"
pair: "\"a\"" ":" SHORT | "\"b\"" ":" (WORD | ESCAPED) | "\"c\"" ":" CODE | "\"d\"" ":" (LONG | SHORT)
SHORT: /"[a-c]{1,4}"/
LONG: /"(?:[^"\\\x00-\x1F]|\\["\\bfnrt]|\\u00[01][0-9a-fA-F]){0,12}"/
WORD: /"[a-z ]*"/
ESCAPED: /"(?:[^"\\]|\\.)*"/
CODE: /"[b-d]+-[0-9]{2}"/
%ignore " "
"#;

/// Multi-byte tokens, fragments of UTF-8 and invalid UTF-8, beside the 256 single bytes.
const WORDS: [&[u8]; 18] = [
    b"if",
    b"then",
    b"else",
    b"x",
    b"12",
    b" = ",
    b";",
    b" +",
    b"* ",
    b"(",
    b")",
    b"{\"a\": ",
    b"[1, ",
    b"\"",
    b"\xC3",
    b"\xA9",
    b"\xE2\x82",
    b"\xFF\x78",
];

/// Committed bytes beyond which an input stops (keeps one input fast on ambiguous grammars).
const MAX_COMMITTED: usize = 200;

/// The grammars' classifiers (shared by every input, so their lazily built caches are
/// exercised across inputs) and the vocabulary.
struct MatcherFixture {
    classifiers: Vec<Arc<StackClassifier>>,
    vocab: Arc<Vocabulary>,
}

/// The grammars and the vocabulary: 256 single bytes, [`WORDS`], an empty text token, an
/// unused (special) id, then EOS.
fn matcher_fixture() -> &'static MatcherFixture {
    static FIXTURE: OnceLock<MatcherFixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.extend(WORDS.iter().map(|w| w.to_vec()));
        tokens.push(Vec::new());
        let eos = tokens.len() as u32 + 1;
        let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, Some(eos)));
        let mut grammars = [STATEMENTS, stackmask::DEFAULT_GRAMMAR, CONFIG].map(compile).to_vec();
        let fields = compile_with(FIELDS, &contexts_config());
        assert!(fields.lexer().context_count() > 0, "the fields grammar has lexing contexts");
        assert!(fields.lexer().count_horizon().is_some(), "the fields grammar counts a string");
        grammars.push(fields);
        let classifiers =
            grammars.iter().map(|g| Arc::new(StackClassifier::new(Arc::clone(g), Arc::clone(&vocab)))).collect();
        MatcherFixture { classifiers, vocab }
    })
}

/// The matcher and what the body knows about each committed step.
struct Session {
    matcher: Matcher,
    /// Per committed step (and the start): committed bytes, and the reference mask once
    /// computed there.
    steps: Vec<(usize, Option<Vec<u32>>)>,
}

impl Session {
    fn reference(&self) -> Option<&Vec<u32>> {
        self.steps.last().and_then(|(_, mask)| mask.as_ref())
    }

    fn after_commit(&mut self, result: stackmask::Result<()>, token: Option<u32>) {
        if let (Some(reference), Some(token)) = (self.reference(), token) {
            let allowed = reference[token as usize / 32] >> (token % 32) & 1 == 1;
            assert_eq!(result.is_ok(), allowed, "commit of token {token} disagrees with the mask: {result:?}");
        }
        match result {
            Ok(()) => self.steps.push((self.matcher.committed_bytes(), None)),
            Err(e) => expect_input_error(&e),
        }
    }

    fn verify(&mut self) {
        let reference = match oracle::reference_mask(&self.matcher) {
            Ok(reference) => reference,
            Err(e) => return expect_input_error(&e),
        };
        let mut fast = vec![0u32; self.matcher.mask_words()];
        if let Err(e) = self.matcher.compute_mask(&mut fast) {
            return expect_input_error(&e);
        }
        if fast != reference {
            let (only_fast, only_reference) = oracle::differing_tokens(&fast, &reference);
            panic!("fast mask differs from the reference: fast only {only_fast:?}, reference only {only_reference:?}");
        }
        self.steps.last_mut().expect("the start step").1 = Some(reference);
    }

    fn rollback(&mut self, n: usize) {
        let available = self.steps.len() - 1;
        match self.matcher.rollback(n) {
            Ok(()) => {
                assert!(n <= available);
                self.steps.truncate(self.steps.len() - n);
                let (bytes, mask) = self.steps.last().cloned().expect("the start step");
                assert_eq!(self.matcher.committed_bytes(), bytes, "rollback did not restore the offset");
                if let Some(mask) = mask {
                    let mut now = vec![0u32; self.matcher.mask_words()];
                    if self.matcher.compute_mask(&mut now).is_ok() {
                        assert_eq!(now, mask, "rollback did not restore the mask");
                    }
                }
            }
            Err(e) => {
                assert!(matches!(e, Error::Rollback { .. }) && n > available, "{e}");
            }
        }
    }

    /// The EOS bit of the reference mask says whether the text is complete.
    fn check_accepting(&mut self) {
        let (Some(reference), Ok(accepting)) = (self.reference().cloned(), self.matcher.is_accepting()) else { return };
        let eos = self.matcher.vocab().eos_tokens()[0];
        assert_eq!(accepting, reference[eos as usize / 32] >> (eos % 32) & 1 == 1, "is_accepting disagrees with EOS");
    }

    /// Fast-forward tokens can all be committed, in order.
    fn check_ff_tokens(&mut self) {
        let Ok(tokens) = self.matcher.ff_tokens() else { return };
        let mut ahead = self.matcher.clone();
        for token in tokens {
            if let Err(e) = ahead.commit(token) {
                assert!(matches!(e, Error::Limit { .. }), "fast-forward token {token} cannot be committed: {e}");
                return;
            }
        }
    }
}

/// Arbitrary operations on a matcher: the first byte picks the grammar, then each pair of
/// bytes is one operation (commit a token id, possibly out of range; commit bytes; roll
/// back; compare the fast mask with the reference; check acceptance; fast-forward).
pub fn matcher_ops(data: &[u8]) {
    let Some((&choice, ops)) = data.split_first() else { return };
    let fixture = matcher_fixture();
    let classifier = &fixture.classifiers[choice as usize % fixture.classifiers.len()];
    let mut s = Session { matcher: Matcher::with_classifier(Arc::clone(classifier)), steps: vec![(0, None)] };
    let vocab_len = fixture.vocab.len() as u32;
    for op in ops.chunks_exact(2) {
        if s.matcher.committed_bytes() > MAX_COMMITTED {
            return;
        }
        let arg = op[1];
        match op[0] % 8 {
            0 => s.rollback(arg as usize % 5),
            1 => s.verify(),
            2 => {
                let word = WORDS[arg as usize % WORDS.len()];
                let result = s.matcher.commit_bytes(word);
                s.after_commit(result, None);
            }
            3 => s.check_accepting(),
            4 => s.check_ff_tokens(),
            _ => {
                let token = (u32::from(op[0] / 8) * 256 + u32::from(arg)) % (vocab_len + 2);
                let result = s.matcher.commit(token);
                if token >= vocab_len {
                    assert!(matches!(result, Err(Error::TokenOutOfRange { .. })), "{result:?}");
                }
                s.after_commit(result, Some(token).filter(|&t| t < vocab_len));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Serialized classifier artifacts → load → masks.

/// Bytes of an artifact's header: magic (8), format version (4), reserved (4), metadata
/// length (8), word count (8), digest (8). The format is documented in
/// `stackmask::classifier`'s artifact module; this harness writes it independently.
const ARTIFACT_HEADER: usize = 40;
/// The digest covers the header up to the digest, then the rest in chunks of this size.
const DIGEST_CHUNK: usize = 4 << 20;

/// The matcher grammars' eager classifiers, written as artifacts.
pub fn written_artifacts() -> &'static [Vec<u8>] {
    static ARTIFACTS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    ARTIFACTS.get_or_init(|| {
        let fixture = matcher_fixture();
        let write = |lazy: &Arc<StackClassifier>| {
            let eager = StackClassifier::new(Arc::clone(lazy.compiled()), Arc::clone(&fixture.vocab));
            eager.build_eager().expect("the fixture grammars build within the budget");
            eager.to_artifact().expect("an artifact is written")
        };
        fixture.classifiers.iter().map(write).collect()
    })
}

/// An [`artifact_load`] body (after the grammar choice) as it is read: the metadata
/// length (`u32`, little endian), then the metadata, then the word section's bytes.
fn artifact_body(artifact: &[u8]) -> Vec<u8> {
    let meta_len = u64::from_le_bytes(artifact[16..24].try_into().unwrap()) as usize;
    let words_at = (ARTIFACT_HEADER + meta_len).next_multiple_of(8);
    let meta = &artifact[ARTIFACT_HEADER..ARTIFACT_HEADER + meta_len];
    [&(meta_len as u32).to_le_bytes()[..], meta, &artifact[words_at..]].concat()
}

/// Per fixture grammar, the [`artifact_load`] input that holds its written artifact
/// untouched: the grammar choice, then the body.
pub fn untouched_artifact_inputs() -> Vec<Vec<u8>> {
    let input = |(choice, artifact): (usize, &Vec<u8>)| [vec![choice as u8], artifact_body(artifact)].concat();
    written_artifacts().iter().enumerate().map(input).collect()
}

/// `body` (metadata length, metadata, words) behind the magic and version of a written
/// artifact, with section lengths and a digest that match (words cut to whole words).
fn wrap_artifact(body: &[u8]) -> Vec<u8> {
    let (len, rest) = body.split_at(body.len().min(4));
    let meta_len = (u32::from_le_bytes([len, &[0; 4]].concat()[..4].try_into().unwrap()) as usize).min(rest.len());
    let (meta, words) = rest.split_at(meta_len);
    let words = &words[..words.len() / 4 * 4];
    let mut bytes = written_artifacts()[0][..12].to_vec();
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(words.len() as u64 / 4).to_le_bytes());
    bytes.extend_from_slice(&0u64.to_le_bytes());
    bytes.extend_from_slice(meta);
    bytes.resize((ARTIFACT_HEADER + meta.len()).next_multiple_of(8), 0);
    bytes.extend_from_slice(words);
    let mut hasher = twox_hash::XxHash3_64::new();
    hasher.write(&bytes[..32]);
    for chunk in bytes[ARTIFACT_HEADER..].chunks(DIGEST_CHUNK) {
        hasher.write(&twox_hash::XxHash3_64::oneshot(chunk).to_le_bytes());
    }
    let digest = hasher.finish();
    bytes[32..ARTIFACT_HEADER].copy_from_slice(&digest.to_le_bytes());
    bytes
}

/// Arbitrary bytes as the body of a classifier artifact for the matcher fixture's
/// vocabulary (see [`wrap_artifact`]), behind a valid header and digest so that every
/// input reaches the decoder and the checks behind it (the header's own checks are unit
/// tests). The first byte picks the grammar whose written artifact counts as untouched.
///
/// Loading returns a classifier or an artifact, IR, grammar-compile or limit error. A
/// loaded classifier computes masks along a walk without panicking; one loaded from the
/// untouched payload computes exactly the reference masks.
pub fn artifact_load(data: &[u8]) {
    let Some((&choice, payload)) = data.split_first() else { return };
    let fixture = matcher_fixture();
    let pristine = artifact_body(&written_artifacts()[choice as usize % fixture.classifiers.len()]);
    let config = ArtifactConfig { compile: small_config(), classifier: ClassifierConfig::default() };
    match StackClassifier::from_artifact(&wrap_artifact(payload), Arc::clone(&fixture.vocab), &config) {
        Ok(classifier) => walk_loaded(Arc::new(classifier), payload == &pristine[..]),
        Err(e) => assert!(
            matches!(
                e,
                Error::Artifact { .. }
                    | Error::Ir { .. }
                    | Error::Terminal { .. }
                    | Error::EmptyLanguage { .. }
                    | Error::Limit { .. }
            ),
            "unexpected artifact error: {e}"
        ),
    }
}

/// Mask and commit a few allowed tokens (a different one each step); with `exact`, every
/// mask must be the reference mask and every allowed token must commit.
fn walk_loaded(classifier: Arc<StackClassifier>, exact: bool) {
    let mut matcher = Matcher::with_classifier(classifier);
    let eos = matcher.vocab().eos_tokens()[0];
    for step in 0..12usize {
        let mut mask = vec![0u32; matcher.mask_words()];
        if let Err(e) = matcher.compute_mask(&mut mask) {
            return expect_input_error(&e);
        }
        if exact {
            let reference = oracle::reference_mask(&matcher).expect("the reference mask of a viable text");
            assert_eq!(mask, reference, "a mask of the untouched artifact differs from the reference");
        }
        let allowed: Vec<u32> = (0..mask.len() as u32 * 32).filter(|&t| t != eos && mask[t as usize / 32] >> (t % 32) & 1 == 1).collect();
        let Some(&token) = allowed.get(step * 7 % allowed.len().max(1)) else { return };
        if let Err(e) = matcher.commit(token) {
            assert!(!exact, "token {token} of the untouched artifact's mask does not commit: {e}");
            return expect_input_error(&e);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Bytes through the recognizer on real grammars.

/// `shared/bench/grammars/syncode/java_grammar.lark` in the nearest ancestor of this
/// crate that has it (the project keeps `shared/` beside the repository).
fn java_grammar_path() -> Option<PathBuf> {
    let relative = "shared/bench/grammars/syncode/java_grammar.lark";
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).ancestors().map(|dir| dir.join(relative)).find(|p| p.is_file())
}

/// JSON, and the SynCode Java grammar when `shared/` is present.
pub fn feed_grammars() -> &'static [Arc<CompiledGrammar>] {
    static GRAMMARS: OnceLock<Vec<Arc<CompiledGrammar>>> = OnceLock::new();
    GRAMMARS.get_or_init(|| {
        let mut grammars = vec![compile(stackmask::DEFAULT_GRAMMAR)];
        match java_grammar_path() {
            Some(path) => grammars.push(compile(&std::fs::read_to_string(path).expect("readable grammar"))),
            None => eprintln!("SKIPPED: the Java grammar (shared/bench/grammars/syncode) was not found"),
        }
        grammars
    })
}

/// Arbitrary bytes through [`Recognizer::feed`]: the first byte picks the grammar (JSON or
/// Java) and the chunk size; the rest is the text. A rejection names the first byte that
/// is not viable — the bytes before it are accepted — and the body skips that byte and
/// goes on.
pub fn recognizer_feed(data: &[u8]) {
    let Some((&choice, text)) = data.split_first() else { return };
    let grammars = feed_grammars();
    let mut r = Recognizer::new(Arc::clone(&grammars[choice as usize % grammars.len()]));
    let chunk_size = usize::from(choice >> 4) + 1;
    let mut at = 0;
    while at < text.len() {
        let chunk = &text[at..(at + chunk_size).min(text.len())];
        let before = r.offset();
        match r.feed(chunk) {
            Ok(()) => at += chunk.len(),
            Err(Error::Rejected { offset, .. }) => {
                assert_eq!(r.offset(), before, "a rejected feed moved the recognizer");
                assert!((before..before + chunk.len()).contains(&offset), "rejected at {offset}, fed {before}..");
                let good = offset - before;
                assert!(feed_checked(&mut r, &chunk[..good]), "the bytes before a rejection are viable");
                at += good + 1;
            }
            Err(e) => {
                expect_input_error(&e);
                return;
            }
        }
    }
    if let Err(e) = r.is_complete() {
        expect_input_error(&e);
    }
}
