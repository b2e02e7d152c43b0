//! Subscription schedule and fee math (being written).
