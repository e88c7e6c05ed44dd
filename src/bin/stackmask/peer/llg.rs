//! llguidance 1.9.1 (crates.io) as the peer engine, built the way its Python package builds
//! it, so that the figures compare with `shared/peers/llg_maskbench.py` and the anchors in
//! `shared/bench/anchors/code_llg/`:
//!
//! * tokenizer: `toktrie_hf_tokenizers::ByteTokenizer` from the same `tokenizer.json`, and a
//!   `ParserFactory` with the general slices (Python's `LLTokenizer(path)`);
//! * matcher: `Matcher::new(factory.create_parser_from_init_ext(...))` with the given parser
//!   limits (Python's `LLMatcher(tokenizer, grammar, limits=...)`);
//! * mask: `compute_mask_or_eos`, and an EOS-only mask when the matcher is in error (Python's
//!   `fill_next_token_bitmask`); a failed `consume_token` leaves the matcher in error, so the
//!   next mask rejects the text, as in the Python scripts.

use crate::forcing::Sequence;
use llguidance::api::{GrammarInit, TopLevelGrammar};
use llguidance::earley::SlicedBiasComputer;
use llguidance::toktrie::InferenceCapabilities;
use llguidance::{Logger, Matcher, ParserFactory};
use stackmask::Error;
use toktrie_hf_tokenizers::ByteTokenizer;

/// llguidance's parser limits (`--peer-limits`, JSON; fields left out keep their defaults).
pub type Limits = llguidance::api::ParserLimits;

/// Parses `--peer-limits`, e.g. `{"step_max_items": 500000}`.
pub fn parse_limits(json: &str) -> Result<Limits, String> {
    serde_json::from_str(json).map_err(|e| format!("not llguidance ParserLimits JSON: {e}"))
}

/// llguidance loaded for one tokenizer: its token environment and parser factory.
pub struct Llguidance {
    factory: ParserFactory,
    limits: Limits,
}

impl Llguidance {
    /// Builds llguidance's tokenizer environment from `tokenizer_json` (decompressed
    /// `tokenizer.json` content) and its parser factory; matchers get `limits`.
    pub fn load(tokenizer_json: &[u8], limits: Option<Limits>) -> Result<Llguidance, Error> {
        let tok_env = ByteTokenizer::from_json_bytes(tokenizer_json)
            .and_then(|tokenizer| tokenizer.into_tok_env(None))
            .map_err(llg_error)?;
        let slices = SlicedBiasComputer::general_slices();
        let factory = ParserFactory::new(&tok_env, InferenceCapabilities::default(), &slices).map_err(llg_error)?;
        Ok(Llguidance { factory, limits: limits.unwrap_or_default() })
    }

    /// llguidance's EOS token.
    pub fn eos(&self) -> u32 {
        self.factory.tok_env().tok_trie().eos_token()
    }

    /// llguidance's vocabulary size.
    pub fn vocab_size(&self) -> usize {
        self.factory.tok_env().tok_trie().vocab_size()
    }

    /// `text` as llguidance's own tokenizer encodes it (Python's `tokenize_str`).
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.factory.tok_env().tokenize_bytes(text.as_bytes())
    }

    /// A matcher for `grammar`: Lark text, or a JSON grammar list such as
    /// [`json_schema_grammar`](super::json_schema_grammar) makes; the error is llguidance's.
    pub fn compile(&self, grammar: &str) -> Result<LlgMatcher, String> {
        let parser = TopLevelGrammar::from_lark_or_grammar_list(grammar).and_then(|grammar| {
            self.factory.create_parser_from_init_ext(
                GrammarInit::Serialized(grammar),
                Logger::new(0, 1),
                InferenceCapabilities::default(),
                self.limits.clone(),
            )
        });
        let matcher = Matcher::new(parser);
        match matcher.get_error() {
            Some(e) => Err(e),
            None => Ok(LlgMatcher { matcher, vocab_size: self.vocab_size(), eos: self.eos(), error: None }),
        }
    }
}

/// An llguidance error while loading its tokenizer environment, as a tokenizer error.
fn llg_error(e: impl std::fmt::Display) -> Error {
    Error::Tokenizer(format!("llguidance: {e}"))
}

/// An llguidance matcher being teacher-forced.
#[derive(Clone)]
pub struct LlgMatcher {
    matcher: Matcher,
    vocab_size: usize,
    eos: u32,
    /// The first error llguidance reported.
    error: Option<String>,
}

impl LlgMatcher {
    /// Keeps the first error; the matcher is in error from then on.
    fn note(&mut self, error: impl std::fmt::Display) {
        self.error.get_or_insert_with(|| error.to_string());
    }
}

impl Sequence for LlgMatcher {
    fn mask_words(&self) -> usize {
        self.vocab_size.div_ceil(32)
    }

    fn compute_mask(&mut self, mask: &mut [u32]) -> Result<(), Error> {
        match self.matcher.compute_mask_or_eos() {
            Ok(allowed) => {
                let words = allowed.as_slice();
                let n = words.len().min(mask.len());
                mask[..n].copy_from_slice(&words[..n]);
                mask[n..].fill(0);
            }
            Err(e) => {
                self.note(e);
                mask.fill(0);
                if let Some(word) = mask.get_mut(self.eos as usize / 32) {
                    *word |= 1 << (self.eos % 32);
                }
            }
        }
        Ok(())
    }

    fn commit(&mut self, token: u32) -> Result<(), Error> {
        if let Err(e) = self.matcher.consume_token(token) {
            self.note(e);
        }
        Ok(())
    }

    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}
