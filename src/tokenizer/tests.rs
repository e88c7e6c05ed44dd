//! Tests on the real tokenizers in `../shared/tokenizers/` (skipped when absent) and on the
//! trie's invariants.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::*;

/// Where the shared tokenizer files are, relative to the crate.
const SHARED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tokenizers/");

/// Texts whose tokens must give back exactly their bytes.
const SAMPLES: [&str; 8] = [
    "fn main() {\n    println!(\"hi\");\n}\n",
    r#"{"name": "héllo 世界 🎉", "n": [1, 2.5e-3, null], "ok": true}"#,
    "a  b   c\t\td\n\n\n  \r\n end  ",
    "   leading and trailing   ",
    "Ünïcödé: ĉ Ġ <0x0A> \u{1F600} 𝔘 ﷽ ١٢٣ Ωμέγα",
    "<think>reasoning</think> <|im_start|><|eot_id|><eos><start_of_turn></s>",
    "x",
    "",
];

/// Loads `name` from the shared directory once per test binary; `None` (reported) if absent.
fn load(cell: &'static OnceLock<Option<Tokenizer>>, name: &str) -> Option<&'static Tokenizer> {
    let loaded = cell.get_or_init(|| {
        let dir = Path::new(SHARED_DIR);
        dir.is_dir().then(|| {
            let path = dir.join(format!("{name}.tokenizer.json.gz"));
            Tokenizer::from_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
    });
    if loaded.is_none() {
        eprintln!("SKIPPED: ../shared/tokenizers not found");
    }
    loaded.as_ref()
}

fn llama3() -> Option<&'static Tokenizer> {
    static CELL: OnceLock<Option<Tokenizer>> = OnceLock::new();
    load(&CELL, "llama3")
}

fn qwen3() -> Option<&'static Tokenizer> {
    static CELL: OnceLock<Option<Tokenizer>> = OnceLock::new();
    load(&CELL, "qwen3")
}

fn gemma3() -> Option<&'static Tokenizer> {
    static CELL: OnceLock<Option<Tokenizer>> = OnceLock::new();
    load(&CELL, "gemma3")
}

/// The three shared tokenizers with their names, or `None` when absent.
fn all_three() -> Option<[(&'static str, &'static Tokenizer); 3]> {
    Some([("llama3", llama3()?), ("qwen3", qwen3()?), ("gemma3", gemma3()?)])
}

/// The id of piece or added token `token` according to the HuggingFace encoder.
fn hf_id(tokenizer: &Tokenizer, token: &str) -> u32 {
    tokenizer.encoder().unwrap().token_to_id(token).unwrap_or_else(|| panic!("no token {token}"))
}

/// The concatenated bytes of `ids`, which must all be text tokens.
fn bytes_of(vocab: &Vocabulary, ids: &[u32]) -> Vec<u8> {
    ids.iter()
        .flat_map(|&id| vocab.token_bytes(id).unwrap_or_else(|| panic!("{id} special")))
        .copied()
        .collect()
}

#[test]
fn types_are_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Vocabulary>();
    assert_send_sync::<TokenTrie>();
    assert_send_sync::<Tokenizer>();
}

#[test]
fn sizes_and_eos_tokens() {
    let Some([(_, llama), (_, qwen), (_, gemma)]) = all_three() else { return };
    assert_eq!(llama.vocab().len(), 128_256);
    assert_eq!(llama.vocab().eos_tokens(), &[128_001, 128_009]);
    assert_eq!(llama.vocab().token_name(128_001), "<|end_of_text|>");
    assert_eq!(qwen.vocab().len(), 151_643 + 26);
    assert_eq!(qwen.vocab().eos_tokens(), &[151_643, 151_645]);
    // 262,144 pieces, plus `<image_soft_token>` at id 262,144.
    assert_eq!(gemma.vocab().len(), 262_145);
    assert_eq!(gemma.vocab().token_name(262_144), "<image_soft_token>");
    assert_eq!(gemma.vocab().eos_tokens(), &[1, 106]);
    assert_eq!(gemma.vocab().token_name(1), "<eos>");
    assert_eq!(gemma.vocab().token_name(106), "<end_of_turn>");
}

#[test]
fn embedded_default_is_qwen3() {
    let embedded = Tokenizer::embedded_default().unwrap();
    assert_eq!(embedded.vocab().len(), 151_669);
    assert_eq!(embedded.vocab().eos_tokens(), &[151_643, 151_645]);
    if let Some(qwen) = qwen3() {
        let same =
            (0..151_669).all(|id| embedded.vocab().token_bytes(id) == qwen.vocab().token_bytes(id));
        assert!(same);
    }
}

#[test]
fn encoded_samples_give_back_their_bytes() {
    let Some(tokenizers) = all_three() else { return };
    for (name, tokenizer) in tokenizers {
        for text in SAMPLES {
            let ids = tokenizer.encode(text).unwrap();
            assert_eq!(
                bytes_of(tokenizer.vocab(), &ids),
                text.as_bytes(),
                "{name}: {text:?} -> {ids:?}"
            );
        }
    }
}

#[test]
fn token_bytes_agree_with_huggingface_decode() {
    let Some(tokenizers) = all_three() else { return };
    for (name, tokenizer) in tokenizers {
        let (vocab, encoder) = (tokenizer.vocab(), tokenizer.encoder().unwrap());
        for id in 0..vocab.len() as u32 {
            let Some(Ok(text)) = vocab.token_bytes(id).map(std::str::from_utf8) else { continue };
            assert_eq!(encoder.decode(&[id], false).unwrap(), text, "{name} token {id}");
        }
    }
}

#[test]
fn special_tokens_have_no_bytes() {
    let Some([(_, llama), (_, qwen), (_, gemma)]) = all_three() else { return };
    for (tokenizer, names) in [
        (llama, ["<|begin_of_text|>", "<|eot_id|>"]),
        (qwen, ["<|im_start|>", "<|endoftext|>"]),
        (gemma, ["<bos>", "<start_of_turn>"]),
    ] {
        for name in names {
            let id = tokenizer.vocab().special_token_id(name).unwrap();
            assert_eq!(id, hf_id(tokenizer, name));
            assert!(
                tokenizer.vocab().is_special(id) && tokenizer.vocab().token_bytes(id).is_none()
            );
            assert_eq!(tokenizer.vocab().token_name(id), name);
        }
    }
}

#[test]
fn gemma_reads_the_space_marker_as_a_space() {
    // Gemma's normalizer turns spaces into `▁`, so a literal `▁` in a text cannot be told
    // from a space: it encodes as one.
    let Some(gemma) = gemma3() else { return };
    let ids = gemma.encode("a▁b").unwrap();
    assert_eq!(bytes_of(gemma.vocab(), &ids), b"a b");
}

#[test]
fn gemma_pieces() {
    let Some(gemma) = gemma3() else { return };
    let vocab = gemma.vocab();
    assert_eq!(vocab.token_bytes(hf_id(gemma, "<0x0A>")), Some(&b"\n"[..]));
    assert_eq!(vocab.token_bytes(hf_id(gemma, "<0xE4>")), Some(&[0xE4][..]));
    assert_eq!(vocab.token_bytes(hf_id(gemma, "▁the")), Some(&b" the"[..]));
    // A non-special added token written with `▁`.
    assert_eq!(vocab.token_bytes(hf_id(gemma, "▁▁")), Some(&b"  "[..]));
    assert_eq!(vocab.token_bytes(hf_id(gemma, "<unused0>")), Some(&b"<unused0>"[..]));
    assert_eq!(vocab.token_bytes(hf_id(gemma, "</s>")), Some(&b"</s>"[..]));
}

#[test]
fn byte_level_pieces() {
    let Some([(_, llama), (_, qwen), _]) = all_three() else { return };
    for tokenizer in [llama, qwen] {
        let vocab = tokenizer.vocab();
        assert_eq!(vocab.token_bytes(hf_id(tokenizer, "Ġthe")), Some(&b" the"[..]));
        assert_eq!(vocab.token_bytes(hf_id(tokenizer, "Ċ")), Some(&b"\n"[..]));
        let partial_utf8 = (0..vocab.len() as u32)
            .filter_map(|id| vocab.token_bytes(id))
            .any(|bytes| std::str::from_utf8(bytes).is_err());
        assert!(partial_utf8, "some token is part of a UTF-8 character");
    }
    assert_eq!(qwen.vocab().token_bytes(hf_id(qwen, "<think>")), Some(&b"<think>"[..]));
    assert_eq!(qwen.vocab().token_bytes(hf_id(qwen, "</tool_call>")), Some(&b"</tool_call>"[..]));
}

/// Checks the preorder layout of `vocab`'s trie and that it holds exactly the text tokens.
fn assert_trie_matches(vocab: &Vocabulary) {
    let trie = vocab.trie();
    let nodes = trie.nodes();
    let end = |node: usize| nodes[node].subtree_end();
    assert_eq!(end(TokenTrie::ROOT), trie.node_count());
    // Walk in preorder, keeping the path from the root and the bytes along it.
    let mut path: Vec<usize> = vec![TokenTrie::ROOT];
    let mut prefix: Vec<u8> = Vec::new();
    let mut seen = vec![false; vocab.len()];
    for node in 0..trie.node_count() {
        if node > 0 {
            while end(*path.last().unwrap()) <= node {
                path.pop();
                prefix.pop();
            }
            let parent = *path.last().unwrap();
            assert!(node < end(node) && end(node) <= end(parent), "node {node} out of place");
            path.push(node);
            prefix.push(nodes[node].byte);
        }
        let children: Vec<u8> = trie.children(node).map(|c| nodes[c].byte).collect();
        assert!(children.windows(2).all(|w| w[0] < w[1]), "children of {node} not sorted");
        let ids = trie.tokens_at(node);
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        for &id in ids {
            assert_eq!(vocab.token_bytes(id), Some(&prefix[..]), "token {id} at node {node}");
            assert!(!std::mem::replace(&mut seen[id as usize], true), "token {id} twice");
        }
        assert!(prefix.len() <= trie.max_depth());
    }
    for id in 0..vocab.len() as u32 {
        match vocab.token_bytes(id) {
            Some(bytes) => {
                assert!(seen[id as usize], "token {id} missing");
                assert!(trie.tokens_at(trie.lookup(bytes).unwrap()).contains(&id));
            }
            None => assert!(!seen[id as usize], "special token {id} in trie"),
        }
    }
}

#[test]
fn trie_of_small_vocabularies() {
    let cases: [(Vec<&[u8]>, Option<u32>); 5] = [
        (vec![], None),
        (vec![b"a", b"ab", b"abc", b"b", b"a", b"", b"ba"], Some(3)),
        (vec![b"", b""], None),
        (vec![b"zz", b"z", b"\xff", b"\x00", b"\xff\x00"], Some(9)),
        (vec![b"same", b"same", b"same"], Some(1)),
    ];
    for (tokens, eos) in cases {
        let vocab = Vocabulary::from_token_bytes(tokens.iter().map(|t| t.to_vec()).collect(), eos);
        assert_trie_matches(&vocab);
    }
    let vocab =
        Vocabulary::from_token_bytes(vec![b"ab".to_vec(), Vec::new(), b"abcd".to_vec()], None);
    assert_eq!(vocab.trie().tokens_at(TokenTrie::ROOT), &[1]);
    assert_eq!(vocab.trie().max_depth(), 4);
    assert_eq!(vocab.trie().node_count(), 5);
    assert_eq!(vocab.trie().lookup(b"abc").map(|n| vocab.trie().tokens_at(n).len()), Some(0));
    assert_eq!(vocab.trie().lookup(b"b"), None);
}

#[test]
fn trie_of_real_vocabularies() {
    let Some(tokenizers) = all_three() else { return };
    for (_, tokenizer) in tokenizers {
        assert_trie_matches(tokenizer.vocab());
    }
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn with(name: &str, content: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("stackmask-{}-{name}", std::process::id()));
        std::fs::write(&path, content).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn bad_files_are_errors() {
    let not_json = TempFile::with("not-json.json", b"\x00\x01 definitely not JSON");
    assert!(matches!(Tokenizer::from_file(&not_json.0), Err(Error::Tokenizer(_))));
    let unigram = TempFile::with(
        "unigram.json",
        br#"{"model": {"type": "Unigram", "vocab": [["a", 0.0]]}, "decoder": {"type": "Metaspace"}}"#,
    );
    let err = Tokenizer::from_file(&unigram.0).unwrap_err();
    assert!(err.to_string().contains("Unigram"), "{err}");
    let bad_gzip = TempFile::with("bad.json.gz", &[0x1f, 0x8b, 8, 0, 0, 0]);
    assert!(matches!(Tokenizer::from_file(&bad_gzip.0), Err(Error::Tokenizer(_))));
    let missing = std::env::temp_dir().join("stackmask-no-such-dir/tokenizer.json");
    assert!(matches!(Tokenizer::from_file(missing), Err(Error::Io { .. })));
    assert!(Tokenizer::from_json_bytes(b"").is_err());
}

#[test]
fn encoder_failure_is_an_error_at_encode() {
    // The vocabulary part is fine, but HuggingFace needs merges to build the model.
    let json =
        br#"{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "ByteLevel"}}"#;
    let tokenizer = Tokenizer::from_json_bytes(json).unwrap();
    assert_eq!(tokenizer.vocab().token_bytes(0), Some(&b"a"[..]));
    let err = tokenizer.encode("a").unwrap_err();
    assert!(
        matches!(&err, Error::Tokenizer(reason) if !reason.starts_with("tokenizer error")),
        "{err}"
    );
    assert!(tokenizer.encode("a").is_err());
}

/// Plain text as the standard library decodes it: valid UTF-8, 1 to 256 characters,
/// none of them a control character, `"` or `\`.
fn is_plain_text(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| {
        (1..=PlainTokens::MAX_CHARS).contains(&s.chars().count()) && s.chars().all(|c| !c.is_ascii_control() && c != '"' && c != '\\')
    })
}

/// The plain tokens, and the subtrees holding others, agree with decoding each token.
fn assert_plain_tokens_agree(vocab: &Vocabulary) {
    let trie = vocab.trie();
    let plain = trie.plain_tokens();
    let expected: Vec<u32> = (0..vocab.len() as u32).filter(|&id| vocab.token_bytes(id).is_some_and(is_plain_text)).collect();
    assert_eq!(plain.ids(), expected.as_slice());
    let is_plain = |id: &u32| plain.ids().binary_search(id).is_ok();
    for node in 0..trie.node_count() {
        assert_eq!(plain.holds_other(node), !trie.subtree_tokens(node).iter().all(is_plain), "node {node}");
        if let Some(&id) = trie.tokens_at(node).first() {
            assert_eq!(plain.is_plain(node), is_plain(&id), "node {node}");
        }
    }
}

#[test]
fn plain_tokens_agree_with_utf8_decoding() {
    let mut tokens: Vec<Vec<u8>> = ["a", "ab", "a\"", "é", "éx", "\t", "\u{7f}", "\\n", "€", "𝄞", "\u{10FFFF}", "\u{80}"]
        .iter()
        .map(|t| t.as_bytes().to_vec())
        .collect();
    // Half characters, overlong forms, surrogates, past U+10FFFF, stray continuations.
    tokens.extend([vec![0xC3], vec![0xA9, b'a'], vec![0xC0, 0x80], vec![0xE0, 0x80, 0x80], vec![0xED, 0xA0, 0x80], vec![0xF4, 0x90, 0x80, 0x80], vec![0xF5]]);
    tokens.extend((0..=255u8).map(|b| vec![b]));
    // Past the most characters a plain token has: "é" × 256 is one, "é" × 257 is not.
    tokens.extend([256, 257, 300].map(|n| "é".repeat(n).into_bytes()));
    assert_plain_tokens_agree(&Vocabulary::from_token_bytes(tokens, None));
    match all_three() {
        Some(tokenizers) => tokenizers.iter().for_each(|(_, t)| assert_plain_tokens_agree(t.vocab())),
        None => eprintln!("SKIPPED: plain tokens of the real tokenizers (../shared/tokenizers/ absent)"),
    }
}
