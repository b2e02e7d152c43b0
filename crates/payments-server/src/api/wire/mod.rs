//! The JSON wire types of the HTTP API: the request bodies the handlers decode and the answers they write,
//! each with its OpenAPI schema. Only `api/` knows them: a handler converts a request into the domain's
//! draft before calling a service, and a domain value into its answer after.
//!
//! A wire type keeps the name its schema and serde's messages show (`expected struct ProfileRequest`), so
//! the HTTP answers and the OpenAPI document do not change when a type moves here.

pub(crate) mod admin;
pub(crate) mod charges;
pub(crate) mod inventory;
pub(crate) mod inventory_answers;
pub(crate) mod plans;
pub(crate) mod receipt_actions;
pub(crate) mod receipts;
pub(crate) mod shipping;
pub(crate) mod shop;
pub(crate) mod subscriptions;
pub(crate) mod users;

#[cfg(test)]
mod answers_tests;
