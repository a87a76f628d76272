//! How much of the suite runs, and the optional programs it uses.
//!
//! The default `cargo test` is a fast subset: statistical tests run about
//! 5% of their seeds and the external checkers are skipped (with a note)
//! when their program is missing. The full run (every seed, every checker
//! required) is on when `CI` is set (as CI services set it) or
//! `DUNGEONFLOW_FULL=1`.

#![allow(dead_code)] // each test binary uses the part it needs

use std::sync::Once;

/// Whether the full statistical run is on: `CI` set (to anything but `0`
/// or `false`) or `DUNGEONFLOW_FULL=1`.
pub fn full() -> bool {
    let on = |name: &str| {
        std::env::var(name)
            .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
            .unwrap_or(false)
    };
    on("CI") || on("DUNGEONFLOW_FULL")
}

/// Fewest seeds a shortened statistical test runs.
const SHORT_MIN: u64 = 20;

/// The number of seeds to run of a test written for `n`: `n` in the full
/// run, one in twenty (at least [`SHORT_MIN`], at most `n`) otherwise.
pub fn seeds(n: u64) -> u64 {
    if full() {
        n
    } else {
        (n / 20).max(SHORT_MIN).min(n)
    }
}

/// `tolerance` for a share measured over `n` seeds, widened for the
/// shortened run: standard errors grow as one over the square root of the
/// seeds, so the tolerance is scaled by `sqrt(n / seeds(n))`.
pub fn tolerance(tolerance: f64, n: u64) -> f64 {
    tolerance * (n as f64 / seeds(n) as f64).sqrt()
}

/// `least` lowered by four standard errors of a share (at worst one half)
/// measured over `seeds(n)` seeds instead of `n`: the bound for a share
/// that must be at least `least` over the full `n`.
pub fn at_least(least: f64, n: u64) -> f64 {
    if seeds(n) == n {
        return least;
    }
    least - 4.0 * (0.25 / seeds(n) as f64).sqrt()
}

static MISSING: Once = Once::new();

/// Whether the external program `name` can run. When it cannot: under the
/// full run the test fails (CI installs it); otherwise a note saying how to
/// install it (`install`) is printed once per test binary and the caller
/// skips its check.
pub fn program(name: &str, install: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()));
    if found {
        return true;
    }
    assert!(
        !full(),
        "`{name}` is not on PATH and the full run (CI or DUNGEONFLOW_FULL=1) needs it: {install}"
    );
    MISSING.call_once(|| {
        note(&format!(
            "skipped the checks that run `{name}`: it is not on PATH ({install}); CI runs them"
        ))
    });
    false
}

/// Prints `text` as a note the test harness does not capture, so that it
/// shows in a passing run too.
pub fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "note: {text}");
}
