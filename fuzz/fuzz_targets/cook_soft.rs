//! libFuzzer target `cook_soft`: the harness is `sinew_fuzz::cook::run_soft` (see its docs), under
//! `sinew_fuzz::fuzz_one`: an input over 1 s of CPU time is a hang.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::fuzz_one(sinew_fuzz::cook::run_soft, data));
