//! Peer engines, linked in and run in the same process on the same data as stackmask
//! (`bench` and `maskbench` with `--peer`). llguidance (crates.io, `=1.9.1`) needs the Cargo
//! feature `llguidance`, off by default because it needs rustc 1.87 or later; without it
//! `--peer llguidance` is refused when the arguments are parsed.

#[cfg(feature = "llguidance")]
mod llg;
#[cfg(not(feature = "llguidance"))]
mod unavailable;

#[cfg(feature = "llguidance")]
pub use llg::{parse_limits, Limits, Llguidance};
#[cfg(not(feature = "llguidance"))]
pub use unavailable::{parse_limits, Limits, Llguidance};

use crate::out;
use crate::summary::MemoryProbe;
use stackmask::tokenizer::Tokenizer;
use stackmask::Error;
use std::io::Write;
use std::time::Instant;

/// A peer engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// llguidance 1.9.1 from crates.io.
    Llguidance,
}

/// Why `--peer llguidance` cannot run in this build.
pub const UNAVAILABLE: &str =
    "this stackmask was built without the `llguidance` feature; rebuild with `cargo build --release --features llguidance` (needs rustc >= 1.87)";

/// Parses `--peer`: known names only, and only when the engine is linked in.
pub fn parse_peer(name: &str) -> Result<Peer, String> {
    match name {
        "llguidance" if cfg!(feature = "llguidance") => Ok(Peer::Llguidance),
        "llguidance" => Err(UNAVAILABLE.into()),
        _ => Err(format!("unknown peer `{name}` (known: llguidance)")),
    }
}

/// The grammar text llguidance's `LLMatcher` is given for a JSON Schema, as
/// `shared/peers/llg_maskbench.py` builds it: `{"grammars": [{"json_schema": SCHEMA}]}`.
pub fn json_schema_grammar(schema: &str) -> String {
    format!(r#"{{"grammars": [{{"json_schema": {schema}}}]}}"#)
}

/// Loads llguidance for the same `tokenizer.json` as `tokenizer`, and says how long that
/// took, how much memory it added, and where the two disagree on the vocabulary.
pub fn load(tokenizer: &Tokenizer, limits: Option<Limits>) -> Result<Llguidance, Error> {
    let probe = MemoryProbe::start();
    let started = Instant::now();
    let llg = Llguidance::load(&tokenizer.json()?, limits)?;
    out!(
        "llguidance: tokenizer environment {:.1} ms, RSS growth {} MiB ({} tokens, EOS {})",
        started.elapsed().as_secs_f64() * 1e3,
        probe.finish().growth_mib().map_or_else(|| "?".into(), |g| format!("{g:.0}")),
        llg.vocab_size(),
        llg.eos()
    );
    let vocab = tokenizer.vocab();
    if llg.vocab_size() != vocab.len() {
        out!("warning: llguidance counts {} tokens, stackmask {}", llg.vocab_size(), vocab.len());
    }
    if vocab.eos_tokens().first() != Some(&llg.eos()) {
        out!("warning: llguidance's EOS is {}, stackmask's {:?}; each engine checks its own", llg.eos(), vocab.eos_tokens());
    }
    Ok(llg)
}

/// Cuts a peer's error message (which can quote its whole grammar) to `max` characters.
pub fn shorten(message: &str, max: usize) -> String {
    match message.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_names_are_checked() {
        assert!(parse_peer("xgrammar").unwrap_err().contains("unknown peer"));
        assert_eq!(parse_peer("llguidance").is_ok(), cfg!(feature = "llguidance"));
    }

    #[test]
    fn errors_are_shortened_on_char_boundaries() {
        assert_eq!(shorten("ééé", 2), "éé…");
        assert_eq!(shorten("ab", 2), "ab");
    }

    #[test]
    fn schemas_are_wrapped_as_a_grammar_list() {
        let text = json_schema_grammar(r#"{"type": "integer"}"#);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["grammars"][0]["json_schema"]["type"], "integer");
    }
}
