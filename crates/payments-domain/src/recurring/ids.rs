//! Public ids of plans and customer subscriptions: a prefix and 32 hex digits when generated; an id a caller
//! sends is looked up as is (bounded, printable), so an unknown one is simply not found.

use crate::field_error::FieldError;
use crate::inventory::text;

/// The longest id a caller may send.
const MAX_ID_CHARS: usize = 128;

/// A subscription plan's public id, `plan_` + 32 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlanId(String);

impl PlanId {
    pub fn generate() -> Self {
        PlanId(format!("plan_{}", uuid::Uuid::new_v4().simple()))
    }

    pub fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, MAX_ID_CHARS).map(PlanId)
    }

    pub fn from_stored(id: String) -> Self {
        PlanId(id)
    }

    /// What the plan's sealed webhook key is bound to (the master key's associated data): prefixed, so a
    /// plan id can never open a key sealed for a receipt of the same name, nor the other way round.
    pub fn signing_context(&self) -> String {
        format!("plan:{}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A customer subscription's public id, `csub_` + 32 hex digits (`sub_` ids are gateway key records).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CustomerSubscriptionId(String);

impl CustomerSubscriptionId {
    pub fn generate() -> Self {
        CustomerSubscriptionId(format!("csub_{}", uuid::Uuid::new_v4().simple()))
    }

    pub fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, MAX_ID_CHARS).map(CustomerSubscriptionId)
    }

    pub fn from_stored(id: String) -> Self {
        CustomerSubscriptionId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_carry_their_prefix_and_parse_back() {
        let plan = PlanId::generate();
        let subscription = CustomerSubscriptionId::generate();

        assert!(plan.as_str().starts_with("plan_") && plan.as_str().len() == 37);
        assert!(subscription.as_str().starts_with("csub_") && subscription.as_str().len() == 37);
        assert_eq!(PlanId::parse("planId", plan.as_str()), Ok(plan));
    }

    #[test]
    fn blank_or_overlong_ids_are_refused() {
        assert!(PlanId::parse("planId", " ").is_err());
        assert!(CustomerSubscriptionId::parse("subscriptionId", &"a".repeat(129)).is_err());
    }
}
