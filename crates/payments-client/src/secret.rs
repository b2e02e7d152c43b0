//! The subscription key, kept out of logs and `Debug` output.

use std::fmt;

/// A subscription (API) key.
///
/// `Debug` and `Display` print `[redacted]`, so a key inside a logged struct or error never leaks; read it
/// deliberately with [`SubscriptionKey::expose`].
///
/// ```
/// use payments_client::SubscriptionKey;
/// let key = SubscriptionKey::new("sk_live_123");
/// assert_eq!(format!("{key:?}"), "[redacted]");
/// assert_eq!(key.expose(), "sk_live_123");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SubscriptionKey(String);

impl SubscriptionKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        SubscriptionKey(key.into())
    }

    /// The key text, for putting it on the wire.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SubscriptionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for SubscriptionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl From<String> for SubscriptionKey {
    fn from(key: String) -> Self {
        SubscriptionKey(key)
    }
}

impl From<&str> for SubscriptionKey {
    fn from(key: &str) -> Self {
        SubscriptionKey(key.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::SubscriptionKey;

    #[test]
    fn debug_and_display_never_show_the_key() {
        let key = SubscriptionKey::new("very-secret");
        assert_eq!(format!("{key:?}"), "[redacted]");
        assert_eq!(format!("{key}"), "[redacted]");
        assert_eq!(format!("{:?}", Some(key)), "Some([redacted])");
    }
}
