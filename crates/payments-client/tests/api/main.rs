//! The client against the real server (`payments_server::testing::spawn_app`): every method (admin
//! routes signed in with a k256 key) and the typed error mapping. One test binary, so the server is linked once.

mod admin;
mod admin_receipts;
mod config;
mod errors;
#[cfg(test)]
mod helpers;
mod inventory;
#[cfg(test)]
mod lost_answers;
mod paging;
mod receipts;
#[cfg(test)]
mod reserve;
mod status;
#[cfg(test)]
mod subscriptions;
#[cfg(test)]
mod users;
