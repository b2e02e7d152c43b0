//! A redacting wrapper for secrets (subscription keys, the edge secret).

use std::fmt;

use subtle::ConstantTimeEq;

/// A secret string whose `Debug` prints `[redacted]`, so it can sit in configs and errors that get logged.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself; call only where it leaves the process on purpose (printing a new key, hashing).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Compares in constant time, so response timing does not reveal how much of a guess was right.
    pub fn matches(&self, candidate: &str) -> bool {
        self.0.as_bytes().ct_eq(candidate.as_bytes()).into()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_shows_the_secret() {
        let secret = Secret::new("sk_live_abc");

        assert_eq!(format!("{secret:?}"), "[redacted]");
    }

    #[test]
    fn matching_compares_the_whole_value() {
        let secret = Secret::new("edge-secret");

        assert!(secret.matches("edge-secret"));
        assert!(!secret.matches("edge-secre"));
        assert!(!secret.matches("edge-secret2"));
    }
}
