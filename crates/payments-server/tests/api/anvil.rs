//! The throwaway anvil of the on-chain tests lives in `payments_server::testing::anvil`, shared with the
//! CLI's tests.

pub(crate) use payments_server::testing::anvil::{Anvil, BUYER, BUYER_KEY, DEPLOYER_KEY};
