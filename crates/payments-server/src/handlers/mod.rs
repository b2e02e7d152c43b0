//! Thin handlers: extract (auth, ids, JSON) -> convert -> one service call -> render.

pub(crate) mod health;
pub(crate) mod images;
pub(crate) mod inventory;
pub(crate) mod ping;
pub(crate) mod shop;
