//! The schema of `payments-core`'s `FailureCategory`, here rather than with core's other schemas in
//! `api/openapi/core_types.rs` because the error envelope (this layer) names it and `http/` may not look up at
//! `api/`; `core_types` re-exports it.

// Read only by the `ToSchema` derive: its variants are never built.
#![allow(dead_code, reason = "documentation-only schema type")]

/// The spec's six payment failure categories.
#[derive(Debug, utoipa::ToSchema)]
#[schema(rename_all = "snake_case")]
pub(crate) enum FailureCategory {
    CardDecline,
    Compliance,
    Limits,
    Blockchain,
    Session,
    System,
}
