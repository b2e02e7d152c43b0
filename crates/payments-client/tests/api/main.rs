//! The client against the real server (`payments_server::testing::spawn_app`): every method and the
//! typed error mapping. One test binary, so the server is linked once.

mod config;
mod errors;
#[cfg(test)]
mod helpers;
mod inventory;
mod receipts;
mod status;
