//! Thread safety and the batch API: many matchers on different texts share one
//! `Arc<CompiledGrammar>` and one `Arc<Vocabulary>`; masks computed in parallel
//! (`compute_masks_parallel`, also called from several threads at once) equal the serial
//! `compute_mask` results. That the shared types are `Send + Sync` is checked when the
//! library compiles (`src/matcher/batch.rs`).
//!
//! The scaling measurement is an ignored test, run as
//! `cargo test --release --test concurrency -- --ignored --nocapture`.

use stackmask::classifier::StackClassifier;
use stackmask::matcher::compute_masks_parallel;
use stackmask::tokenizer::{Tokenizer, Vocabulary};
use stackmask::{CompiledGrammar, Error, Grammar, Matcher};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

fn json() -> Arc<CompiledGrammar> {
    static JSON: OnceLock<Arc<CompiledGrammar>> = OnceLock::new();
    Arc::clone(JSON.get_or_init(|| {
        Arc::new(CompiledGrammar::new(&Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap()).unwrap())
    }))
}

fn tokenizer() -> &'static Tokenizer {
    static TOKENIZER: OnceLock<Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| Tokenizer::embedded_default().unwrap())
}

/// Prefixes of JSON documents, all different: matchers at different places of different
/// texts.
fn prefixes(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            let doc = format!(
                "{{\"id\": {i}, \"name\": \"item {i}\", \"tags\": [\"a\", \"b{}\"], \"nested\": {{\"ok\": {}}}}}",
                i * 7,
                i % 2 == 0
            );
            doc[..(i * 13) % doc.len()].to_string()
        })
        .collect()
}

/// Matchers sharing one stack classifier (whose lazily built automaton states are then
/// built concurrently), each with one prefix committed token by token.
fn matchers(texts: &[String], vocab: &Arc<Vocabulary>) -> Vec<Matcher> {
    let classifier = Arc::new(StackClassifier::new(json(), Arc::clone(vocab)));
    texts
        .iter()
        .map(|text| {
            let mut m = Matcher::with_classifier(Arc::clone(&classifier));
            for token in tokenizer().encode(text).unwrap() {
                m.commit(token).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            }
            m
        })
        .collect()
}

fn serial_masks(matchers: &mut [Matcher]) -> Vec<u32> {
    let words = matchers[0].mask_words();
    let mut masks = vec![0u32; matchers.len() * words];
    for (m, row) in matchers.iter_mut().zip(masks.chunks_mut(words)) {
        m.compute_mask(row).unwrap();
    }
    masks
}

fn parallel_masks(matchers: &mut [Matcher]) -> Vec<u32> {
    let mut masks = vec![u32::MAX; matchers.len() * matchers[0].mask_words()];
    compute_masks_parallel(matchers, &mut masks).unwrap();
    masks
}

#[test]
fn batch_equals_serial() {
    let vocab = tokenizer().vocab_arc();
    let mut ms = matchers(&prefixes(24), &vocab);
    let serial = serial_masks(&mut ms);
    assert_eq!(parallel_masks(&mut ms), serial);
    let words = ms[0].mask_words();
    assert!(serial.chunks(words).any(|a| serial.chunks(words).any(|b| a != b)), "the rows differ");
}

#[test]
fn batch_from_several_threads_at_once() {
    let vocab = tokenizer().vocab_arc();
    let texts = prefixes(32);
    std::thread::scope(|scope| {
        for part in texts.chunks(8) {
            let vocab = Arc::clone(&vocab);
            scope.spawn(move || {
                let mut ms = matchers(part, &vocab);
                for _ in 0..2 {
                    let serial = serial_masks(&mut ms);
                    assert_eq!(parallel_masks(&mut ms), serial);
                    for m in &mut ms {
                        // Whitespace is viable almost everywhere in JSON; where it is
                        // not, the matcher stays as it was.
                        let _ = m.commit_bytes(b" ");
                    }
                }
            });
        }
    });
}

#[test]
fn matchers_move_between_threads_and_share_the_grammar() {
    let vocab = tokenizer().vocab_arc();
    let texts = prefixes(8);
    let ms = matchers(&texts, &vocab);
    let handles: Vec<_> = ms
        .into_iter()
        .map(|mut m| {
            std::thread::spawn(move || {
                let mut mask = vec![0u32; m.mask_words()];
                m.compute_mask(&mut mask).unwrap();
                (m.committed_bytes(), mask)
            })
        })
        .collect();
    let results: Vec<(usize, Vec<u32>)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let mut again = matchers(&texts, &vocab);
    let words = again[0].mask_words();
    for ((bytes, mask), expected) in results.iter().zip(serial_masks(&mut again).chunks(words)) {
        assert_eq!(mask.as_slice(), expected, "after {bytes} bytes");
    }
}

#[test]
fn batch_buffer_of_the_wrong_size_is_refused() {
    let vocab = tokenizer().vocab_arc();
    let mut ms = matchers(&prefixes(3), &vocab);
    let words = ms[0].mask_words();
    for len in [0, 3 * words - 1, 3 * words + 1] {
        let mut masks = vec![7u32; len];
        assert!(matches!(compute_masks_parallel(&mut ms, &mut masks), Err(Error::MaskSize { .. })), "{len}");
        assert!(masks.iter().all(|&w| w == 7), "nothing written");
    }
    assert!(compute_masks_parallel(&mut [], &mut []).is_ok());
}

#[test]
fn a_failing_row_is_zeroed_and_reported_and_the_others_are_computed() {
    let vocab = tokenizer().vocab_arc();
    let mut ms = matchers(&prefixes(4), &vocab);
    let expected = serial_masks(&mut ms);
    let small = Arc::new(Vocabulary::from_token_bytes(vec![b"{".to_vec()], None));
    ms[2] = Matcher::new(json(), small); // one mask word: not the batch's row width
    let words = ms[0].mask_words();
    let mut masks = vec![u32::MAX; 4 * words];
    assert!(
        matches!(compute_masks_parallel(&mut ms, &mut masks), Err(Error::MaskSize { got, need: 1 }) if got == words)
    );
    for row in [0, 1, 3] {
        assert_eq!(masks[row * words..(row + 1) * words], expected[row * words..(row + 1) * words], "row {row}");
    }
    assert!(masks[2 * words..3 * words].iter().all(|&w| w == 0));
}

/// Serial versus parallel wall time for batches of 16 and 64 matchers (JSON grammar,
/// embedded Qwen3 tokenizer). Prints the figures; asserts only that the results agree.
#[test]
#[ignore = "measurement: cargo test --release --test concurrency -- --ignored --nocapture"]
fn batch_scaling() {
    const ROUNDS: usize = 5;
    let vocab = tokenizer().vocab_arc();
    println!("threads in rayon's pool: {}", rayon::current_num_threads());
    for batch in [16, 64] {
        let mut ms = matchers(&prefixes(batch), &vocab);
        let serial = serial_masks(&mut ms);
        assert_eq!(parallel_masks(&mut ms), serial);
        let start = Instant::now();
        for _ in 0..ROUNDS {
            serial_masks(&mut ms);
        }
        let serial_time = start.elapsed() / ROUNDS as u32;
        let start = Instant::now();
        for _ in 0..ROUNDS {
            parallel_masks(&mut ms);
        }
        let parallel_time = start.elapsed() / ROUNDS as u32;
        println!(
            "batch {batch:>3}: serial {serial_time:>10.2?}, parallel {parallel_time:>10.2?}, speed-up {:.2}x",
            serial_time.as_secs_f64() / parallel_time.as_secs_f64()
        );
    }
}
