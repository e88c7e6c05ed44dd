//! Arbitrary bytes as a classifier artifact's payload (behind a valid header and digest):
//! loading never panics, loaded classifiers mask without panicking, and the untouched
//! artifact gives the reference masks (body: `stackmask_fuzz::artifact_load`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stackmask_fuzz::artifact_load(data));
