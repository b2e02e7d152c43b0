//! `Secret` lives in `payments-domain`; this re-export keeps `crate::secret::Secret`.

pub use payments_domain::Secret;
