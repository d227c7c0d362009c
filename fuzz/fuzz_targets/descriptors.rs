//! libFuzzer target `descriptors`: the harness is `sinew_fuzz::desc::run` (see its docs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::desc::run(data));
