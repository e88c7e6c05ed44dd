//! Classifier artifacts: what a [`StackClassifier`] has built, written to bytes and read
//! back, so that a server pays for an eager build once per grammar and vocabulary.
//!
//! Boundary: [`StackClassifier::to_artifact`] writes the built spanner rows and automata
//! with the grammar IR they came from; [`StackClassifier::from_artifact`] takes those
//! bytes and the [`Vocabulary`] the caller already holds, and returns a classifier whose
//! masks are the ones the written classifier gives (what was not built yet is built on
//! first use, as always).
//!
//! # Format
//!
//! `MAGIC` (8 bytes), the format version (`u32`, little endian), the xxh3-64 digest of
//! the payload (`u64`, little endian), then the payload in [postcard]'s wire format:
//!
//! * the grammar IR, and 64-bit fingerprints of its compiled lexer and LR tables and of
//!   the vocabulary ([`Vocabulary::fingerprint`]);
//! * per lexer state whose spanner row is built: the row's classes (lexemes, end state,
//!   ascending token ids), and the automaton when one is built: its configuration
//!   sets, its token sets as lists of class indices, and its edges.
//!
//! Loading recompiles the grammar from the IR under the caller's
//! [`CompileConfig`] (milliseconds; the expensive parts are the rows and automata) and
//! refuses the artifact unless the lexer and LR tables have the fingerprint written:
//! every lexer state, terminal, LR state and production id stored then means what it
//! meant when written. Token sets are rebuilt from class lists, dense bitmaps included.
//!
//! # Trust
//!
//! Loading never panics and never reads out of bounds, whatever the bytes: the digest
//! catches corruption and truncation, and every id is checked against the tables it
//! indexes ([`Error::Artifact`] says where and why). Like `regex-automata`'s
//! `DFA::from_bytes`, this cannot prove that a well-formed artifact is the one the
//! build would make: bytes crafted to pass the checks with other token sets give other
//! masks. Load artifacts you wrote, or check a loaded classifier against the reference
//! mask (`stackmask bench --verify`).
//!
//! [postcard]: https://docs.rs/postcard

use super::simulate::Blocked;
use super::{ClassifierConfig, Dfa, Edge, RowAutomaton, StackClassifier, NO_OUTPUT};
use crate::error::{Error, Result};
use crate::ir::{Grammar, GrammarBuilder};
use crate::lexer::LexState;
use crate::lr::LrState;
use crate::matcher::{CompileConfig, CompiledGrammar};
use crate::spanner::{Lexeme, SpannerRow, TokenClass, TokenSpanner};
use crate::tokenizer::Vocabulary;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The first bytes of every artifact.
const MAGIC: [u8; 8] = *b"SMCLASS\0";
/// Bumped whenever a record's meaning changes; other versions are refused.
const FORMAT_VERSION: u32 = 1;
/// Magic, version and digest.
const HEADER_BYTES: usize = 8 + 4 + 8;

/// How [`StackClassifier::from_artifact`] compiles the grammar and bounds the classifier.
///
/// # Example
/// ```
/// use stackmask::classifier::ArtifactConfig;
/// let config = ArtifactConfig::default();
/// assert_eq!(config.classifier.max_known_stack, 64);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ArtifactConfig {
    /// Limits of the grammar compile (and the GLR limits of matchers using it).
    pub compile: CompileConfig,
    /// Bounds of the loaded classifier (the cache capacity applies to what is loaded too).
    pub classifier: ClassifierConfig,
}

#[derive(Serialize, Deserialize)]
struct Payload {
    grammar: Grammar,
    compiled_fingerprint: u64,
    vocab_fingerprint: u64,
    vocab_len: u64,
    rows: Vec<RowRecord>,
}

#[derive(Serialize, Deserialize)]
struct RowRecord {
    state: LexState,
    classes: Vec<ClassRecord>,
    automaton: Option<AutomatonRecord>,
}

#[derive(Serialize, Deserialize)]
struct ClassRecord {
    lexemes: Vec<Lexeme>,
    end: LexState,
    /// Ascending token ids, as little-endian bytes: one copy to load, where varints or
    /// roaring containers cost a decode per token (rows hold most of the vocabulary).
    #[serde(with = "le_u32s")]
    tokens: Box<[u32]>,
}

#[derive(Serialize, Deserialize)]
struct AutomatonRecord {
    /// Configuration sets by automaton state id, the dead and start states first.
    states: Vec<Vec<Blocked>>,
    /// Token sets by id, as the row's class indices.
    outputs: Vec<Vec<u32>>,
    edges: Vec<(u32, LrState, Edge)>,
}

impl StackClassifier {
    /// Write everything built so far (spanner rows and automata, typically after
    /// [`StackClassifier::build_eager`]) as an artifact for [`StackClassifier::from_artifact`].
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, Matcher, tokenizer::Vocabulary};
    /// use stackmask::classifier::{ArtifactConfig, StackClassifier};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "(("].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let built = StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab.clone());
    /// built.build_eager().unwrap();
    /// let bytes = built.to_artifact().unwrap();
    ///
    /// let loaded = StackClassifier::from_artifact(&bytes, vocab, &ArtifactConfig::default()).unwrap();
    /// assert_eq!(loaded.stats().edges, built.stats().edges);
    /// let mut m = Matcher::with_classifier(Arc::new(loaded));
    /// m.commit(0).unwrap(); // "("
    /// let mut mask = vec![0u32; m.mask_words()];
    /// m.compute_mask(&mut mask).unwrap();
    /// assert_eq!(mask[0], 0b11101); // "(" "x" "x)" "((" but not ")"
    /// ```
    pub fn to_artifact(&self) -> Result<Vec<u8>> {
        let payload = Payload {
            grammar: self.compiled().grammar().clone(),
            compiled_fingerprint: compiled_fingerprint(self.compiled())?,
            vocab_fingerprint: self.vocab().fingerprint(),
            vocab_len: self.vocab().len() as u64,
            rows: self.spanner.built_rows().map(|(q, row)| self.row_record(q, row)).collect(),
        };
        let body = postcard::to_stdvec(&payload).map_err(|e| artifact_error("payload", e))?;
        let mut bytes = Vec::with_capacity(HEADER_BYTES + body.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&xxh3_64(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        Ok(bytes)
    }

    /// Load an artifact written by [`StackClassifier::to_artifact`] for the vocabulary
    /// `vocab` (refused, as [`Error::Artifact`], when it was written for another, when it
    /// is corrupt, truncated or of another format version, or when this build compiles
    /// its grammar to other tables). Errors of the grammar compile (limits in
    /// `config.compile`) are returned as they are.
    ///
    /// See [`StackClassifier::to_artifact`] for an example.
    pub fn from_artifact(bytes: &[u8], vocab: Arc<Vocabulary>, config: &ArtifactConfig) -> Result<StackClassifier> {
        let payload = read_payload(bytes)?;
        check_vocabulary(&payload, &vocab)?;
        let compiled = Arc::new(compile(payload.grammar, &config.compile)?);
        if compiled_fingerprint(&compiled)? != payload.compiled_fingerprint {
            let reason = "this build compiles the grammar to other lexer or LR tables than the build that wrote it";
            return Err(artifact_error("grammar", reason));
        }
        let rows = payload.rows.into_par_iter().map(|record| row_from_record(record, &compiled, &vocab)).collect::<Result<Vec<_>>>()?;
        let (rows, automata): (Vec<_>, Vec<_>) = rows.into_iter().map(|(q, row, automaton)| ((q, row), (q, automaton))).unzip();
        check_distinct_states(&rows)?;
        let spanner = TokenSpanner::with_rows(compiled, vocab, rows);
        let classifier = StackClassifier::with_spanner(Arc::new(spanner), config.classifier.clone());
        automata.into_par_iter().try_for_each(|(q, record)| match record {
            Some(record) => classifier.restore(q, record),
            None => Ok(()),
        })?;
        Ok(classifier)
    }

    fn row_record(&self, q: LexState, row: &SpannerRow) -> RowRecord {
        let classes = row.classes().iter().map(ClassRecord::of).collect();
        let automaton = self.automata[q.index()].get().map(AutomatonRecord::of);
        RowRecord { state: q, classes, automaton }
    }

    /// Rebuild lexer state `q`'s automaton from `record` (its row is loaded already).
    fn restore(&self, q: LexState, record: AutomatonRecord) -> Result<()> {
        let automaton = self.automaton(q);
        let at = || format!("automaton of lexer state {}", q.index());
        let dfa = restore_dfa(automaton, record, self.compiled().tables().state_count(), self.words)
            .map_err(|reason| Error::Artifact { at: at(), reason })?;
        let mut slot = automaton.dfa.write().unwrap_or_else(|p| p.into_inner());
        self.bytes.fetch_add(dfa.bytes, Ordering::Relaxed);
        self.bytes.fetch_sub(slot.bytes, Ordering::Relaxed);
        *slot = dfa;
        Ok(())
    }
}

impl ClassRecord {
    fn of(class: &TokenClass) -> ClassRecord {
        ClassRecord { lexemes: class.lexemes.to_vec(), end: class.end, tokens: class.tokens.clone() }
    }
}

/// `[u32]` as one byte string of little-endian words.
mod le_u32s {
    use serde::de::{Deserializer, Error, Visitor};
    use serde::Serializer;

    pub fn serialize<S: Serializer>(words: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        serializer.serialize_bytes(&bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Box<[u32]>, D::Error> {
        deserializer.deserialize_bytes(Words)
    }

    struct Words;

    impl Visitor<'_> for Words {
        type Value = Box<[u32]>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a byte string of little-endian u32 words")
        }

        fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Box<[u32]>, E> {
            if bytes.len() % 4 != 0 {
                return Err(E::invalid_length(bytes.len(), &self));
            }
            Ok(bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes"))).collect())
        }
    }
}

impl AutomatonRecord {
    fn of(automaton: &RowAutomaton) -> AutomatonRecord {
        let dfa = automaton.dfa.read().unwrap_or_else(|p| p.into_inner());
        let states = dfa.states.iter().map(|configs| configs.to_vec()).collect();
        let mut outputs = vec![Vec::new(); dfa.outputs.len()];
        for (classes, &id) in &dfa.output_ids {
            outputs[id as usize] = classes.to_vec();
        }
        let mut edges: Vec<(u32, LrState, Edge)> = dfa.edges.iter().map(|(&(state, lr), &edge)| (state, lr, edge)).collect();
        edges.sort_unstable_by_key(|&(state, lr, _)| (state, lr));
        AutomatonRecord { states, outputs, edges }
    }
}

/// The payload of `bytes`, once its header and digest check out.
fn read_payload(bytes: &[u8]) -> Result<Payload> {
    if bytes.len() < HEADER_BYTES {
        return Err(artifact_error("header", format!("{} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len())));
    }
    let (header, body) = bytes.split_at(HEADER_BYTES);
    if header[..8] != MAGIC {
        return Err(artifact_error("header", "not a stackmask classifier artifact (wrong magic bytes)"));
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(artifact_error("header", format!("format version {version}; this build reads version {FORMAT_VERSION}")));
    }
    let digest = u64::from_le_bytes(header[12..20].try_into().expect("8 bytes"));
    if xxh3_64(body) != digest {
        return Err(artifact_error("payload", "digest mismatch: the artifact is corrupt or truncated"));
    }
    let (payload, rest) = postcard::take_from_bytes::<Payload>(body).map_err(|e| artifact_error("payload", e))?;
    if !rest.is_empty() {
        return Err(artifact_error("payload", format!("{} bytes after the end of the payload", rest.len())));
    }
    Ok(payload)
}

fn check_vocabulary(payload: &Payload, vocab: &Vocabulary) -> Result<()> {
    if payload.vocab_len != vocab.len() as u64 || payload.vocab_fingerprint != vocab.fingerprint() {
        let reason = format!(
            "written for another vocabulary ({} tokens, fingerprint {:016x}); this one has {} tokens, fingerprint {:016x}",
            payload.vocab_len,
            payload.vocab_fingerprint,
            vocab.len(),
            vocab.fingerprint()
        );
        return Err(artifact_error("vocabulary", reason));
    }
    Ok(())
}

/// Validate the IR (as a builder does) and compile it.
fn compile(grammar: Grammar, config: &CompileConfig) -> Result<CompiledGrammar> {
    let start = grammar.start;
    let grammar = GrammarBuilder::from_grammar(grammar).build(start)?;
    CompiledGrammar::with_config(&grammar, config)
}

/// A digest of the compiled lexer and LR tables: the ids an artifact stores.
fn compiled_fingerprint(compiled: &CompiledGrammar) -> Result<u64> {
    let mut hasher = Xxh3::new();
    compiled.lexer().hash_into(&mut hasher);
    let tables = postcard::to_stdvec(compiled.tables()).map_err(|e| artifact_error("grammar", e))?;
    hasher.update(&tables);
    Ok(hasher.digest())
}

type LoadedRow = (LexState, SpannerRow, Option<AutomatonRecord>);

/// A row record checked against the compiled grammar and the vocabulary.
fn row_from_record(record: RowRecord, compiled: &CompiledGrammar, vocab: &Vocabulary) -> Result<LoadedRow> {
    let q = record.state;
    let lexer_states = compiled.lexer().state_count();
    if q.index() >= lexer_states || q.is_dead() {
        let reason = format!("a row for lexer state {}; the lexer has states 1..{lexer_states}", q.index());
        return Err(artifact_error("rows", reason));
    }
    let classes = record
        .classes
        .into_iter()
        .enumerate()
        .map(|(i, class)| {
            class_from_record(class, compiled, vocab.len()).map_err(|reason| Error::Artifact {
                at: format!("row of lexer state {}, class {i}", q.index()),
                reason,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((q, SpannerRow::from_classes(classes), record.automaton))
}

fn class_from_record(record: ClassRecord, compiled: &CompiledGrammar, vocab_len: usize) -> Result<TokenClass, String> {
    let terminals = compiled.tables().terminal_capacity() - 1;
    for lexeme in &record.lexemes {
        if let Some(t) = lexeme.terminals.iter().find(|t| t.index() >= terminals) {
            return Err(format!("a lexeme names terminal {}; the grammar has {terminals}", t.0));
        }
    }
    if record.end.index() >= compiled.lexer().state_count() {
        return Err(format!("end state {}; the lexer has {}", record.end.index(), compiled.lexer().state_count()));
    }
    if let Some(pair) = record.tokens.windows(2).find(|pair| pair[0] >= pair[1]) {
        return Err(format!("tokens are not ascending ({} then {})", pair[0], pair[1]));
    }
    if let Some(&max) = record.tokens.last().filter(|&&max| max as usize >= vocab_len) {
        return Err(format!("token {max}; the vocabulary has {vocab_len}"));
    }
    Ok(TokenClass { lexemes: record.lexemes.into(), end: record.end, tokens: record.tokens })
}

fn check_distinct_states(rows: &[(LexState, SpannerRow)]) -> Result<()> {
    let mut seen = vec![false; rows.iter().map(|(q, _)| q.index() + 1).max().unwrap_or(0)];
    for (q, _) in rows {
        if std::mem::replace(&mut seen[q.index()], true) {
            return Err(artifact_error("rows", format!("two rows for lexer state {}", q.index())));
        }
    }
    Ok(())
}

/// Replay `record` into a fresh [`Dfa`] (interning as the lazy build does, so sizes are
/// counted the same way), checking every id.
fn restore_dfa(automaton: &RowAutomaton, record: AutomatonRecord, lr_states: usize, words: usize) -> Result<Dfa, String> {
    let mut dfa = Dfa::new();
    let base = dfa.states.len();
    if record.states.len() < base || !record.states[0].is_empty() || record.states[1] != [Blocked::START] {
        return Err("the first states are not the dead and start states".into());
    }
    for (id, configs) in record.states.into_iter().enumerate().skip(base) {
        if let Some(Err(reason)) = configs.iter().map(|b| b.check(&automaton.trie)).find(Result::is_err) {
            return Err(format!("state {id}: {reason}"));
        }
        if dfa.intern_state(configs) as usize != id {
            return Err(format!("state {id} repeats an earlier one"));
        }
    }
    let classes = automaton.row.classes().len();
    for (id, set) in record.outputs.into_iter().enumerate() {
        if let Some(c) = set.iter().find(|&&c| c as usize >= classes) {
            return Err(format!("token set {id} names class {c}; the row has {classes}"));
        }
        if set.is_empty() || dfa.intern_output(set, automaton, words) as usize != id {
            return Err(format!("token set {id} is empty or repeats an earlier one"));
        }
    }
    for (state, lr, edge) in record.edges {
        check_edge(&dfa, state, lr, edge, lr_states)?;
        if dfa.edges.insert((state, lr), edge).is_some() {
            return Err(format!("two edges from state {state} on LR state {}", lr.0));
        }
        dfa.overflowed += usize::from(matches!(edge, Edge::Overflow));
        dfa.bytes += 32;
    }
    Ok(dfa)
}

fn check_edge(dfa: &Dfa, state: u32, lr: LrState, edge: Edge, lr_states: usize) -> Result<(), String> {
    let states = dfa.states.len();
    if state as usize >= states || lr.index() >= lr_states {
        return Err(format!("an edge from state {state} on LR state {}; there are {states} states and {lr_states} LR states", lr.0));
    }
    match edge {
        Edge::To { target, .. } if target as usize >= states => Err(format!("an edge to state {target} of {states}")),
        Edge::To { output, .. } if output != NO_OUTPUT && output as usize >= dfa.outputs.len() => {
            Err(format!("an edge with token set {output} of {}", dfa.outputs.len()))
        }
        _ => Ok(()),
    }
}

fn artifact_error(at: &str, reason: impl ToString) -> Error {
    Error::Artifact { at: at.to_string(), reason: reason.to_string() }
}
