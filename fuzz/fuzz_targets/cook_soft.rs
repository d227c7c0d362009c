//! libFuzzer target `cook_soft`: the harness is `sinew_fuzz::cook::run_soft` (see its docs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::cook::run_soft(data));
