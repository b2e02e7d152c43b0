//! EIP-712 spend permissions (being written).
