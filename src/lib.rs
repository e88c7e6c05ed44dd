//! # stackmask
//!
//! Grammar-constrained decoding for LLMs: at every decoding step, the set of vocabulary
//! tokens that keep the output a viable prefix of a grammar.
//!
//! The pipeline, one module per stage (data flows one way):
//!
//! | stage | module | job |
//! |---|---|---|
//! | front-end | [`frontend`] | Lark text, JSON Schema ([`frontend::json_schema`]) or a regex → grammar IR |
//! | IR | [`ir`] | BNF over regular terminals |
//! | lexer | [`lexer`] | all terminals in one byte-level DFA |
//! | LR tables | [`lr`] | LALR(1) automaton, conflicts kept |
//! | GLR | [`glr`] | graph-structured stack driven by lexemes |
//! | tokenizer | [`tokenizer`] | token ids → exact bytes, token trie |
//! | token spanner | [`spanner`] | lexer state × token → lexemes, token classes |
//! | stack classifier | [`classifier`] | automaton over LR state ids → token masks |
//! | matcher | [`matcher`] | commit / rollback / mask, the exact oracle |
//!
//! Beside the stages: [`error`] (every error, with position and reason) and [`words`]
//! (token-id lists and token bitmaps, owned or read in place from a loaded artifact).
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, Matcher, tokenizer::Vocabulary};
//! use std::sync::Arc;
//!
//! let grammar = Grammar::from_lark(r#"start: "a"+ "b""#).unwrap();
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     vec![b"a".to_vec(), b"b".to_vec(), b"ab".to_vec(), b"c".to_vec(), Vec::new()],
//!     Some(4),
//! ));
//! let compiled = Arc::new(CompiledGrammar::new(&grammar).unwrap());
//! let mut m = Matcher::new(compiled, vocab);
//! let mut mask = vec![0u32; m.mask_words()];
//! m.compute_mask(&mut mask).unwrap();
//! // "a" and "ab" may start the text; "b", "c" and EOS may not.
//! assert_eq!(mask[0], 0b00101);
//! m.commit(2).unwrap(); // "ab"
//! assert!(m.is_accepting().unwrap());
//! ```

pub mod classifier;
pub mod error;
mod fold_hash;
mod interner;
pub mod frontend;
pub mod glr;
pub mod ir;
pub mod lexer;
pub mod lr;
pub mod matcher;
pub mod spanner;
pub mod tokenizer;
pub mod words;

pub use error::{Error, LimitKind, Position, Result};
pub use ir::Grammar;
pub use matcher::{CompiledGrammar, Matcher};

/// The grammar the CLI uses when none is given: generic JSON (`grammars/json.lark`).
pub const DEFAULT_GRAMMAR: &str = include_str!("../grammars/json.lark");
