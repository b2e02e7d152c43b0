//! Typed errors: one for building a verifier ([`KeyError`]), one for checking a request ([`VerifyError`]).

use std::error::Error;
use std::fmt;
use std::time::Duration;

/// A key or secret could not be used to build a verifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The key or secret is empty (or decodes to no bytes).
    Empty,
    /// The API key starts or ends with whitespace; trim it where you read it.
    Whitespace,
    /// A Standard Webhooks secret must start with `whsec_`.
    MissingWhsecPrefix,
    /// The part after `whsec_` is not standard base64.
    InvalidBase64,
    /// A verifier needs at least one candidate key or secret.
    NoKeys,
    /// The key or secret text is longer than 1024 characters: not one the service issued.
    TooLong,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "key is empty",
            Self::Whitespace => "api key has leading or trailing whitespace",
            Self::MissingWhsecPrefix => "webhook secret must start with `whsec_`",
            Self::InvalidBase64 => "webhook secret after `whsec_` is not valid base64",
            Self::NoKeys => "no key or secret given",
            Self::TooLong => "key is longer than 1024 characters",
        })
    }
}

impl Error for KeyError {}

/// Why a webhook request was rejected.
///
/// Every variant means "do not trust this request". The messages never contain a key, a secret or the
/// expected signature.
#[derive(Debug)]
#[non_exhaustive]
pub enum VerifyError {
    /// A required header is absent.
    MissingHeader {
        /// The header's lowercase name.
        name: &'static str,
    },
    /// A header that must appear once appears several times; no "first wins" guess is made.
    AmbiguousHeader {
        /// The header's lowercase name.
        name: &'static str,
        /// How many times it appears.
        count: usize,
    },
    /// A header is present but not in the format the scheme requires.
    MalformedHeader {
        /// The header's lowercase name.
        name: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The signature is well formed but made with none of the candidate keys, or over other bytes.
    SignatureMismatch,
    /// The timestamp is older than the tolerance allows (a delayed or replayed request).
    Stale {
        /// How far the timestamp is behind "now".
        age: Duration,
        /// The tolerance in force.
        tolerance: Duration,
    },
    /// The timestamp is further ahead of "now" than the tolerance allows (clock skew or forgery).
    FromTheFuture {
        /// How far the timestamp is ahead of "now".
        ahead: Duration,
        /// The tolerance in force.
        tolerance: Duration,
    },
    /// The signature holds but the body is not an event (see [`BodyError`](crate::BodyError)). A body of an
    /// unknown event type is not this error: it parses as [`Event::Unknown`](crate::Event::Unknown).
    #[cfg(feature = "serde")]
    InvalidBody(crate::body_error::BodyError),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingHeader { name } => write!(f, "missing header `{name}`"),
            Self::AmbiguousHeader { name, count } => {
                write!(f, "header `{name}` appears {count} times, expected exactly once")
            }
            Self::MalformedHeader { name, reason } => write!(f, "malformed header `{name}`: {reason}"),
            Self::SignatureMismatch => f.write_str("signature does not match the body and any candidate key"),
            Self::Stale { age, tolerance } => {
                write!(f, "timestamp is {age:?} old, tolerance is {tolerance:?}")
            }
            Self::FromTheFuture { ahead, tolerance } => {
                write!(
                    f,
                    "timestamp is {ahead:?} in the future, tolerance is {tolerance:?}"
                )
            }
            #[cfg(feature = "serde")]
            Self::InvalidBody(err) => write!(f, "signature holds but the body is not a valid event: {err}"),
        }
    }
}

impl Error for VerifyError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            #[cfg(feature = "serde")]
            Self::InvalidBody(err) => Some(err),
            _ => None,
        }
    }
}
