//! v23: an idempotency claim names what it made (docs/storage.md, "Idempotency keys").
//! - `idempotency_keys.resource_kind`, `resource_id`: written with the claim in the use case's transaction
//!   (`receipt`, `plan` or `subscription`, and its public id), so the claim commits together with the
//!   resource. The response is kept afterwards by a second small write; a claim that committed without a
//!   kept response (the process stopped in between) is answered from the resource it names, never by a
//!   second write. Rows from before v23 always carry their response, so they need no resource.

pub(crate) const SQL: &str = "
ALTER TABLE idempotency_keys ADD COLUMN resource_kind TEXT;
ALTER TABLE idempotency_keys ADD COLUMN resource_id TEXT;
";
