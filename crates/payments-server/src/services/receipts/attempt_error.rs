//! Why a webhook attempt failed. The dispatcher decides from the kind of failure whether a later attempt
//! can succeed; the text is rendered only for the delivery log and the log line.

use thiserror::Error;

use crate::runtime::master_key::MasterKeyError;

/// One failed attempt: nothing reached the receiver, or it never answered.
#[derive(Debug, Error)]
pub(crate) enum AttemptError {
    /// The delivery carries no sealed signing key, so no attempt can ever sign it.
    #[error("no signing key: {0}")]
    NoSigningKey(Unsigned),
    /// The server runs without a master key; a restart with one can open the signing key.
    #[error("no master key to open the signing key")]
    NoMasterKey,
    /// The sealed signing key did not open with this server's master key.
    #[error(transparent)]
    SigningKeyUnreadable(MasterKeyError),
    /// The target is not allowed now (scheme, credentials, an internal or unresolvable address); DNS
    /// answers change, so it is tried again on schedule.
    #[error("target refused: {reason}")]
    TargetRefused {
        /// What the target policy refused.
        reason: String,
    },
    /// A header value that HTTP cannot carry.
    #[error("header {name}: {reason}")]
    BadHeader {
        /// The header.
        name: &'static str,
        /// Why its value was refused.
        reason: String,
    },
    /// The receiver did not answer within the timeout.
    #[error("timed out")]
    TimedOut,
    /// No connection to the receiver (refused, reset, TLS).
    #[error("connection failed: {reason}")]
    ConnectionFailed {
        /// The client's description, without the URL.
        reason: String,
    },
    /// Any other failure of the request.
    #[error("request failed: {reason}")]
    RequestFailed {
        /// The client's description, without the URL.
        reason: String,
    },
}

/// Why a delivery has no signing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub(crate) enum Unsigned {
    /// Receipts created with an admin session carry no API key to sign with.
    #[error("the receipt was created without an API key")]
    ReceiptWithoutKey,
    /// The plan's webhook target (and the key that signed for it) was removed after the delivery was queued.
    #[error("the plan's webhook target was removed")]
    PlanTargetRemoved,
    /// The webhook endpoint was deleted after the delivery was queued.
    #[error("the webhook endpoint was deleted")]
    EndpointRemoved,
}

/// Whether another attempt of a failed delivery can succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Try again on the retry schedule.
    OnSchedule,
    /// Give up now: no attempt can succeed.
    Never,
}

impl AttemptError {
    /// What a failure means for the next attempt. Only a delivery that can never be signed gives up at
    /// once; every other failure may pass (a receiver back up, a restart with the master key, a DNS change).
    pub(crate) fn retry(&self) -> Retry {
        match self {
            AttemptError::NoSigningKey(_) => Retry::Never,
            AttemptError::NoMasterKey
            | AttemptError::SigningKeyUnreadable(_)
            | AttemptError::TargetRefused { .. }
            | AttemptError::BadHeader { .. }
            | AttemptError::TimedOut
            | AttemptError::ConnectionFailed { .. }
            | AttemptError::RequestFailed { .. } => Retry::OnSchedule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_unsignable_delivery_gives_up_at_once() {
        let never = [
            AttemptError::NoSigningKey(Unsigned::ReceiptWithoutKey),
            AttemptError::NoSigningKey(Unsigned::PlanTargetRemoved),
            AttemptError::NoSigningKey(Unsigned::EndpointRemoved),
        ];
        let on_schedule = [
            AttemptError::NoMasterKey,
            AttemptError::SigningKeyUnreadable(MasterKeyError::Unseal),
            AttemptError::TargetRefused {
                reason: "must use https".to_owned(),
            },
            AttemptError::TimedOut,
            AttemptError::ConnectionFailed {
                reason: "refused".to_owned(),
            },
        ];

        assert!(never.iter().all(|error| error.retry() == Retry::Never));
        assert!(on_schedule.iter().all(|error| error.retry() == Retry::OnSchedule));
    }

    #[test]
    fn the_delivery_log_keeps_the_wording_it_always_had() {
        assert_eq!(
            AttemptError::NoSigningKey(Unsigned::ReceiptWithoutKey).to_string(),
            "no signing key: the receipt was created without an API key"
        );
        assert_eq!(
            AttemptError::NoSigningKey(Unsigned::PlanTargetRemoved).to_string(),
            "no signing key: the plan's webhook target was removed"
        );
        assert_eq!(
            AttemptError::NoMasterKey.to_string(),
            "no master key to open the signing key"
        );
        assert_eq!(AttemptError::TimedOut.to_string(), "timed out");
    }
}
