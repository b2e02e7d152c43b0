//! Parsers of untrusted input in the domain: the spend permission's JSON forms and its signatures.
//! Fuzz-style properties live in `fuzz` (see docs/fuzzing.md; `scripts/fuzz.sh` runs them long).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "property helpers outside #[test] fns fail the case loudly"
)]

mod fuzz;
