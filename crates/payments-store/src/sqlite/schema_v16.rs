//! v16: the card path (docs/payment-page.md). The onramp session a receipt's payment page created last: its
//! provider, the provider's session id (the webhook's `onrampSessionId`), the provider's URL the buyer was
//! sent to, and when it was created (a Stripe session is handed out again for a few minutes). All NULL on a
//! receipt without one.

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN onramp_provider TEXT;
ALTER TABLE receipts ADD COLUMN onramp_session_id TEXT;
ALTER TABLE receipts ADD COLUMN onramp_url TEXT;
ALTER TABLE receipts ADD COLUMN onramp_created_at INTEGER;
";
